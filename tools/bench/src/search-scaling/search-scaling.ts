import os from 'node:os';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { from as copyFrom } from 'pg-copy-streams';
import type { NodeProcess } from '@bhis/testing';
import { databaseUrl, dropDatabase, recreateDatabase, withClient } from '../database';
import { LoadRequest, LoadResult, runLoad } from '../http/load';
import { median } from '../http/paired-rounds';
import { createBenchKey, startApi } from '../http/run-http';
import { postalAddress, streetWord, typedAddress } from '../http/targets';
import { BUILDING_COPY_COLUMNS, buildingCopyLine, searchCity, withTypo } from './address-city';

/** 1%, 10% and the whole city (4,450 buildings per percent, as the city runs). */
export const SEARCH_SCALING_SIZES = [4_450, 44_500, 445_000] as const;
export const SEARCH_SCALING_ROUNDS = 6;
export const SEARCH_SCALING_SECONDS = 2;
/** p99 at the whole city over p99 at 1%, at most. */
export const SEARCH_SCALING_TARGET = 1.2;
/** Queries of each scenario, cycled through (each size is sent the same ones). */
const QUERIES = 500;

export interface SearchScalingScenario {
  name: string;
  /** an example of what it sends */
  example: string;
  sizes: {
    buildings: number;
    requests: number;
    requestsPerSecond: number;
    /** medians of the rounds' p50 and p99 */
    latencyP50Ms: number;
    latencyP99Ms: number;
    /** share of its queries (the first 50) answered with at least one building */
    matchedShare: number;
    statusCounts: Record<string, number>;
  }[];
  /** median over the rounds of p99 at the largest size / p99 at the smallest, both from the same round */
  p99Ratio: number;
  p99Ratios: number[];
  withinTarget: boolean;
}

export interface SearchScalingResult {
  startedAt: string;
  finishedAt: string;
  command: string;
  commit?: string;
  machine: import('../machine').MachineInfo;
  loadAverageAtStart: number[];
  loadAverageAtEnd: number[];
  connections: number;
  rounds: number;
  secondsPerLoad: number;
  target: number;
  /** seconds to generate, COPY, score and ANALYZE each size */
  seedSeconds: Record<string, number>;
  scenarios: SearchScalingScenario[];
}

interface Queries {
  name: string;
  queries: string[];
}

async function seed(url: string, buildings: number): Promise<void> {
  await withClient(url, async (client) => {
    const copy = client.query(copyFrom(`COPY buildings (${BUILDING_COPY_COLUMNS.join(', ')}) FROM STDIN`));
    await pipeline(Readable.from((function* () {
      for (const b of searchCity(buildings)) yield buildingCopyLine(b);
    })()), copy);
    // the current score of every building (search reads its total, grade and label)
    await client.query(
      `INSERT INTO building_scores (bbl, run_id, as_of, scorer_id, total_score, health_score, grade, label, components, scores, counts, confidence)
       SELECT bbl, '00000000-0000-4000-8000-000000000001', '2026-11-01', 'distress_v10_2', t, 100 - t,
              CASE WHEN t >= 80 THEN 'F' WHEN t >= 60 THEN 'D' WHEN t >= 40 THEN 'C' WHEN t >= 20 THEN 'B' ELSE 'A' END, 'synthetic', '{}', '{}', '{}', '{}'
         FROM (SELECT bbl, (hashtext(bbl) & 65535) % 101 AS t FROM buildings) x`,
    );
    await client.query('VACUUM (ANALYZE) buildings');
    await client.query('VACUUM (ANALYZE) building_scores');
  });
}

/** The queries every size is sent: drawn from the smallest city, which every larger one contains. */
function scenarioQueries(): Queries[] {
  const all = [...searchCity(SEARCH_SCALING_SIZES[0])];
  // a fixed spread over the city (every k-th lot), the same at every run
  const step = Math.max(1, Math.floor(all.length / QUERIES));
  const sample = all.filter((_, i) => i % step === 0).slice(0, QUERIES);
  return [
    { name: 'typed address with house number', queries: sample.map((b, i) => typedAddress(b.address, i * 2)) },
    { name: 'typed address with a typo', queries: sample.map((b, i) => withTypo(typedAddress(b.address, i * 2))) },
    { name: 'pasted postal address', queries: sample.map((b) => postalAddress(b.address, b.borough, b.zipcode)) },
    { name: 'street alone', queries: sample.flatMap((b) => streetWord(b.address) ?? []) },
    { name: 'owner', queries: sample.map((b) => b.owner) },
  ];
}

function searchPath(scenario: Queries, query: string): string {
  const field = scenario.name === 'owner' ? 'owner' : 'address';
  return `/api/v1/buildings/search?${field}=${encodeURIComponent(query)}`;
}

function requestOf(scenario: Queries): LoadRequest {
  let i = 0;
  return { method: 'GET', next: () => ({ path: searchPath(scenario, scenario.queries[i++ % scenario.queries.length] as string) }) };
}

async function matchedShare(baseUrl: string, headers: Record<string, string>, scenario: Queries): Promise<number> {
  const probe = scenario.queries.slice(0, 50);
  let matched = 0;
  for (const query of probe) {
    const res = await fetch(`${baseUrl}${searchPath(scenario, query)}`, { headers });
    const body = (await res.json()) as { data?: { buildings?: unknown[] } | unknown[] };
    const rows = Array.isArray(body.data) ? body.data : (body.data?.buildings ?? []);
    if (res.status === 200 && rows.length > 0) matched++;
  }
  return Math.round((matched / probe.length) * 100) / 100;
}

interface SizeServer {
  buildings: number;
  database: string;
  api: NodeProcess;
  baseUrl: string;
  headers: Record<string, string>;
}

export interface SearchScalingOptions {
  adminUrl: string;
  redisPrefix: string;
  connections: number;
  rounds?: number;
  seconds?: number;
  header: Pick<SearchScalingResult, 'command' | 'commit' | 'machine'>;
  log: (line: string) => void;
}

/** One scenario over the rounds: each size's figures, and the paired ratio of the largest size's p99 to the smallest's. */
async function summarize(scenario: Queries, servers: SizeServer[], loads: Map<string, LoadResult[]>): Promise<SearchScalingScenario> {
  const sizes = [];
  for (const server of servers) {
    const runs = loads.get(`${scenario.name}|${server.buildings}`) ?? [];
    const requests = runs.reduce((sum, r) => sum + r.requests, 0);
    const duration = runs.reduce((sum, r) => sum + r.durationSeconds, 0);
    const statusCounts: Record<string, number> = {};
    for (const r of runs) for (const [code, n] of Object.entries(r.statusCounts)) statusCounts[code] = (statusCounts[code] ?? 0) + n;
    sizes.push({
      buildings: server.buildings,
      requests,
      requestsPerSecond: Math.round(requests / duration),
      latencyP50Ms: median(runs.map((r) => r.latencyP50Ms)),
      latencyP99Ms: median(runs.map((r) => r.latencyP99Ms)),
      matchedShare: await matchedShare(server.baseUrl, server.headers, scenario),
      statusCounts,
    });
  }
  const smallest = loads.get(`${scenario.name}|${SEARCH_SCALING_SIZES[0]}`) ?? [];
  const largest = loads.get(`${scenario.name}|${SEARCH_SCALING_SIZES[SEARCH_SCALING_SIZES.length - 1]}`) ?? [];
  const p99Ratios = largest.map((r, i) => Math.round((r.latencyP99Ms / Math.max(1, smallest[i]?.latencyP99Ms ?? 1)) * 100) / 100);
  const p99Ratio = Math.round(median(p99Ratios) * 100) / 100;
  return { name: scenario.name, example: scenario.queries[0] ?? '', sizes, p99Ratio, p99Ratios, withinTarget: p99Ratio <= SEARCH_SCALING_TARGET };
}

const loadAverage = (): number[] => os.loadavg().map((l) => Math.round(l * 100) / 100);

/**
 * Search at 1%, 10% and the whole city in one run: a scratch database per size holding only what
 * search reads (buildings and their current scores), an API on each, and the same queries sent to
 * every size in rounds (each round loads every scenario on every size for a few seconds, the sizes
 * in a rotating order), so that a drift of the shared machine weighs on every size alike.
 */
export async function measureSearchScaling(options: SearchScalingOptions): Promise<SearchScalingResult> {
  const startedAt = new Date().toISOString();
  const loadAverageAtStart = loadAverage();
  const rounds = options.rounds ?? SEARCH_SCALING_ROUNDS;
  const seconds = options.seconds ?? SEARCH_SCALING_SECONDS;
  const servers: SizeServer[] = [];
  const seedSeconds: Record<string, number> = {};
  try {
    for (const buildings of SEARCH_SCALING_SIZES) {
      const database = `bhis_bench_search_${buildings}`;
      const url = databaseUrl(options.adminUrl, database);
      const started = Date.now();
      await recreateDatabase(options.adminUrl, database);
      await seed(url, buildings);
      seedSeconds[String(buildings)] = Math.round((Date.now() - started) / 100) / 10;
      options.log(`${buildings} buildings seeded in ${seedSeconds[String(buildings)]} s (${database})`);
      const key = await createBenchKey(url, 1_000_000_000);
      const { api, baseUrl } = await startApi({ databaseUrl: url, redisPrefix: `${options.redisPrefix}_${buildings}` }, {});
      servers.push({ buildings, database, api, baseUrl, headers: { authorization: `Bearer ${key}` } });
    }
    const scenarios = scenarioQueries();
    const loads = new Map<string, LoadResult[]>();
    for (const server of servers) {
      for (const scenario of scenarios) {
        // warm-up: every query once (JIT, pools, the pages of the indexes they read)
        await runLoad({ name: 'warm-up', baseUrl: server.baseUrl, connections: options.connections, durationSeconds: 300, amount: scenario.queries.length, headers: server.headers, request: requestOf(scenario) });
      }
    }
    for (let round = 0; round < rounds; round++) {
      for (const scenario of scenarios) {
        for (let k = 0; k < servers.length; k++) {
          const server = servers[(k + round) % servers.length] as SizeServer;
          const result = await runLoad({ name: scenario.name, baseUrl: server.baseUrl, connections: options.connections, durationSeconds: seconds, headers: server.headers, request: requestOf(scenario) });
          const key = `${scenario.name}|${server.buildings}`;
          loads.set(key, [...(loads.get(key) ?? []), result]);
        }
      }
      options.log(`round ${round + 1} of ${rounds} done`);
    }
    const results: SearchScalingScenario[] = [];
    for (const scenario of scenarios) {
      const result = await summarize(scenario, servers, loads);
      results.push(result);
      options.log(`  ${scenario.name}: ${result.sizes.map((z) => `${z.buildings}: ${z.requestsPerSecond} req/s p50 ${z.latencyP50Ms} p99 ${z.latencyP99Ms} ms`).join('; ')}; p99 ratio ${result.p99Ratio}`);
    }
    return {
      startedAt,
      finishedAt: new Date().toISOString(),
      ...options.header,
      loadAverageAtStart,
      loadAverageAtEnd: loadAverage(),
      connections: options.connections,
      rounds,
      secondsPerLoad: seconds,
      target: SEARCH_SCALING_TARGET,
      seedSeconds,
      scenarios: results,
    };
  } finally {
    for (const server of servers) await server.api.stop();
    for (const buildings of SEARCH_SCALING_SIZES) await dropDatabase(options.adminUrl, `bhis_bench_search_${buildings}`);
  }
}

