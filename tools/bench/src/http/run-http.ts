import os from 'node:os';
import path from 'node:path';
import { createApiKey, createDataSource } from '@bhis/db';
import { freePort, NodeProcess, readProcessMemory, waitForHealth } from '@bhis/testing';
import { LoadRequest, LoadResult, runLoad } from './load';
import { PairedRounds, PairedTarget, pairedRounds } from './paired-rounds';
import { HttpTargets } from './targets';
import { measureUnitCosts, UnitCosts } from './unit-costs';

export interface HttpBenchmark {
  connections: number;
  secondsPerScenario: number;
  apiEnv: Record<string, string>;
  lookupBodyBytes: number;
  scenarios: LoadResult[];
  ceiling: LoadResult;
  /** a bare Express 5 app (one route, no middleware) sending the lookup's body size, in the same run */
  express?: LoadResult;
  /** lookup req/s divided by the bare server's req/s */
  lookupToCeilingRatio: number;
  /**
   * req/s of the lookup (200), of a request without a key (401) and of a key over its limit (429), each
   * divided by bare Express's: the median of paired rounds (paired-rounds.ts)
   */
  toExpress?: { lookup: number; unauthorized: number; rateLimited: number };
  /** the rounds behind `toExpress` */
  toExpressRounds?: { lookup: PairedRounds; unauthorized: PairedRounds; rateLimited: PairedRounds };
  apiPeakRssBytes: number;
  apiRssAfterBytes: number;
  /** what one rate-limit unit buys on each route (unit-costs.ts); absent with --lookup-only */
  unitCosts?: UnitCosts;
}

export interface HttpBenchmarkOptions {
  databaseUrl: string;
  redisPrefix: string;
  connections: number;
  secondsPerScenario: number;
  targets: HttpTargets;
  /** only the lookup, 401 and 429 scenarios and the bare servers */
  lookupOnly?: boolean;
  log: (line: string) => void;
}

export async function createBenchKey(databaseUrl: string, rateLimitPerMin: number, scopes?: string[]): Promise<string> {
  const ds = createDataSource({ url: databaseUrl, poolSize: 1 });
  await ds.initialize();
  try {
    const created = await createApiKey(ds, { name: 'benchmark', kind: 'live', rateLimitPerMin, scopes });
    return created.key;
  } finally {
    await ds.destroy();
  }
}

function cycle<T>(items: readonly T[]): () => T {
  let i = 0;
  return () => {
    const item = items[i % items.length];
    i += 1;
    if (item === undefined) throw new Error('nothing to cycle through');
    return item;
  };
}

function bodies(bbls: readonly string[], size: number, count: number): string[] {
  return Array.from({ length: count }, (_, n) => JSON.stringify({ bbls: Array.from({ length: size }, (_, i) => bbls[(n * 7919 + i * 31) % bbls.length]) }));
}

interface Scenario {
  name: string;
  request: LoadRequest;
  /** default: the run's headers (the benchmark key) */
  headers?: Record<string, string>;
  /** default: the run's connections */
  connections?: number;
  /** requests of the warm-up (default 3 per connection) */
  warmUp?: number;
}

function scenarios(targets: HttpTargets): Scenario[] {
  const lookup = cycle(targets.lookupBbls);
  const address = cycle(targets.typedAddresses);
  const postal = cycle(targets.postalAddresses);
  const street = cycle(targets.streets);
  const batch = cycle(bodies(targets.lookupBbls, 500, 40));
  const portfolio = JSON.stringify({ bbls: targets.portfolioBbls });
  return [
    // the warm-up asks for every building of the working set once, as a day of traffic would
    { name: 'lookup', warmUp: targets.lookupBbls.length, request: { method: 'GET', next: () => ({ path: `/api/v1/buildings/${lookup()}` }) } },
    { name: 'events page, light building', request: { method: 'GET', next: () => ({ path: `/api/v1/buildings/${targets.lightBuilding.bbl}/events` }) } },
    { name: 'events page, heaviest building', request: { method: 'GET', next: () => ({ path: `/api/v1/buildings/${targets.heavyBuilding.bbl}/events` }) } },
    { name: 'search by typed address', request: { method: 'GET', next: () => ({ path: `/api/v1/buildings/search?address=${encodeURIComponent(address())}` }) } },
    { name: 'search by pasted postal address', request: { method: 'GET', next: () => ({ path: `/api/v1/buildings/search?address=${encodeURIComponent(postal())}` }) } },
    { name: 'search by street alone', request: { method: 'GET', next: () => ({ path: `/api/v1/buildings/search?address=${encodeURIComponent(street())}` }) } },
    { name: 'batch of 500', request: { method: 'POST', next: () => ({ path: '/api/v1/buildings/batch', body: batch() }) } },
    { name: 'batch of 500, one client', connections: 1, request: { method: 'POST', next: () => ({ path: '/api/v1/buildings/batch', body: batch() }) } },
    { name: 'portfolio analyze 10,000', request: { method: 'POST', next: () => ({ path: '/api/v1/portfolio/analyze', body: portfolio }) } },
    { name: 'CSV export 10,000', request: { method: 'POST', next: () => ({ path: '/api/v1/export/csv', body: portfolio }) } },
  ];
}

/** The scenarios the in-memory caches serve, run again on an API with the caches off. */
const WITHOUT_CACHES = ['lookup', 'events page, heaviest building', 'batch of 500, one client'];
const NO_CACHE_ENV = { DOCUMENT_CACHE_MB: '0', EVENTS_CACHE_MB: '0' };
/** Requests without a key are charged to the client address: raised so the 401 scenario stays 401. */
const API_ENV = { RATE_LIMIT_ANONYMOUS_PER_MIN: '10000000' };
/** Seconds of one-at-a-time requests per route for "what one unit buys" (at least ~1 s of CPU on the lookup at 10 ms ticks). */
const UNIT_COST_SECONDS = 4;
/** The access log is written (one line per request, as in production) to a file, not to the load generator. */
const ACCESS_LOG = path.join(os.tmpdir(), `bhis-bench-api-${process.pid}.log`);

/** The lookup answered 401 (no key) and 429 (a key whose one unit a minute is spent by the warm-up). */
function refusedScenarios(targets: HttpTargets, limitedKey: string): Scenario[] {
  const lookup = cycle(targets.lookupBbls);
  const request: LoadRequest = { method: 'GET', next: () => ({ path: `/api/v1/buildings/${lookup()}` }) };
  return [
    { name: 'lookup without a key (401)', headers: {}, request },
    { name: 'lookup over the key\'s limit (429)', headers: { authorization: `Bearer ${limitedKey}` }, request },
  ];
}

interface LoadContext {
  api: NodeProcess;
  baseUrl: string;
  headers: Record<string, string>;
  options: HttpBenchmarkOptions;
}

export async function startApi(options: Pick<HttpBenchmarkOptions, 'databaseUrl' | 'redisPrefix'>, extraEnv: Record<string, string>): Promise<{ api: NodeProcess; baseUrl: string }> {
  const port = await freePort();
  const env = { ...API_ENV, DATABASE_URL: options.databaseUrl, REDIS_PREFIX: options.redisPrefix, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', NODE_ENV: 'production', ...extraEnv };
  const api = NodeProcess.app('api', env, ACCESS_LOG);
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHealth(baseUrl);
  return { api, baseUrl };
}

async function runScenario(context: LoadContext, scenario: Scenario, name = scenario.name): Promise<LoadResult> {
  const { api, baseUrl, options } = context;
  const headers = scenario.headers ?? context.headers;
  const connections = scenario.connections ?? options.connections;
  // a warm-up (JIT, connection pools, Postgres caches) that lets every request finish: a run cut
  // short by its duration aborts the requests in flight, which must not weigh on the next scenario
  await runLoad({ name: 'warm-up', baseUrl, connections, durationSeconds: 300, amount: scenario.warmUp ?? connections * 3, headers, request: scenario.request });
  const result = await runLoad({ name, baseUrl, connections, durationSeconds: options.secondsPerScenario, headers, request: scenario.request, serverPid: api.pid });
  if (api.exited) throw new Error(`the API process exited during "${name}":\n${api.output.slice(-2000)}`);
  options.log(`  ${name}: ${result.requestsPerSecond} req/s, p50 ${result.latencyP50Ms} ms, p99 ${result.latencyP99Ms} ms, statuses ${JSON.stringify(result.statusCounts)}`);
  return result;
}

const BARE_REQUEST: LoadRequest = { method: 'GET', next: () => ({ path: '/api/v1/buildings/1000010001' }) };

/** The lookup, the 401 and the 429 against bare Express in paired rounds (the ratios the bench reports). */
async function roundsAgainstExpress(context: LoadContext, express: BareServer, limitedKey: string): Promise<NonNullable<HttpBenchmark['toExpressRounds']>> {
  const { baseUrl, headers, options } = context;
  const lookup = cycle(options.targets.lookupBbls);
  const request: LoadRequest = { method: 'GET', next: () => ({ path: `/api/v1/buildings/${lookup()}` }) };
  const bare = express.target();
  const log = (name: string, r: PairedRounds): PairedRounds => {
    options.log(`  ${name} / Express in ${r.rounds} paired rounds of ${r.secondsPerLoad} s: ${r.ratios.join(', ')} (median ${r.median})`);
    return r;
  };
  return {
    lookup: log('lookup', await pairedRounds({ baseUrl, headers, request }, bare, options.connections)),
    unauthorized: log('401', await pairedRounds({ baseUrl, headers: {}, request }, bare, options.connections)),
    rateLimited: log('429', await pairedRounds({ baseUrl, headers: { authorization: `Bearer ${limitedKey}` }, request }, bare, options.connections)),
  };
}

/** A bare server as a process, loaded on demand (it idles, costing nothing, while the API is loaded). */
class BareServer {
  private constructor(
    private readonly process: NodeProcess,
    private readonly baseUrl: string,
    private readonly label: string,
  ) {}

  static async start(label: string, script: string, bodyBytes: number): Promise<BareServer> {
    const server = NodeProcess.script(label, path.join(__dirname, script), [String(bodyBytes)], {});
    try {
      await server.waitFor(/listening \d+/);
    } catch (error) {
      await server.stop();
      throw error;
    }
    const port = /listening (\d+)/.exec(server.output)?.[1] ?? '';
    return new BareServer(server, `http://127.0.0.1:${port}`, label);
  }

  target(): PairedTarget {
    return { baseUrl: this.baseUrl, headers: {}, request: BARE_REQUEST };
  }

  async load(options: HttpBenchmarkOptions): Promise<LoadResult> {
    const request = BARE_REQUEST;
    const { baseUrl, label } = this;
    await runLoad({ name: 'warm-up', baseUrl, connections: options.connections, durationSeconds: 2, headers: {}, request });
    const result = await runLoad({ name: label, baseUrl, connections: options.connections, durationSeconds: options.secondsPerScenario, headers: {}, request, serverPid: this.process.pid });
    options.log(`  ${label}: ${result.requestsPerSecond} req/s, p99 ${result.latencyP99Ms} ms`);
    return result;
  }

  stop(): Promise<void> {
    return this.process.stop();
  }
}

/** The load of several runs of one server taken together. */
function combined(runs: LoadResult[]): LoadResult {
  const first = runs[0];
  if (!first) throw new Error('no runs to combine');
  const requests = runs.reduce((sum, r) => sum + r.requests, 0);
  const seconds = runs.reduce((sum, r) => sum + r.durationSeconds, 0);
  const statusCounts: Record<string, number> = {};
  for (const r of runs) for (const [code, n] of Object.entries(r.statusCounts)) statusCounts[code] = (statusCounts[code] ?? 0) + n;
  return {
    ...first,
    name: `${first.name} (${runs.length} runs, each right after an API scenario)`,
    durationSeconds: seconds,
    requests,
    requestsPerSecond: Math.round(requests / seconds),
    latencyP50Ms: Math.max(...runs.map((r) => r.latencyP50Ms)),
    latencyP99Ms: Math.max(...runs.map((r) => r.latencyP99Ms)),
    latencyMaxMs: Math.max(...runs.map((r) => r.latencyMaxMs)),
    megabytesPerSecond: Math.round((runs.reduce((sum, r) => sum + r.megabytesPerSecond * r.durationSeconds, 0) / seconds) * 10) / 10,
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    timeouts: runs.reduce((sum, r) => sum + r.timeouts, 0),
    statusCounts,
    serverPeakRssBytes: Math.max(...runs.map((r) => r.serverPeakRssBytes ?? 0)),
  };
}

function ratio(a: LoadResult | undefined, b: LoadResult): number {
  return a && b.requestsPerSecond > 0 ? Math.round((a.requestsPerSecond / b.requestsPerSecond) * 1000) / 1000 : 0;
}

/** The bare node:http server sending the lookup's body size: the ceiling of one Node process here. */
async function loadCeiling(options: HttpBenchmarkOptions, bodyBytes: number): Promise<LoadResult> {
  const bare = await BareServer.start('bare node:http JSON (ceiling)', 'ceiling-server.js', bodyBytes);
  try {
    return await bare.load(options);
  } finally {
    await bare.stop();
  }
}

/** "What one unit buys" on every route, on the API the scenarios ran on (a key without portfolio:write for the 403). */
async function whatUnitsBuy(options: HttpBenchmarkOptions, api: { api: NodeProcess; baseUrl: string }, keys: { bench: string; limited: string }): Promise<UnitCosts> {
  options.log('what one unit buys (API + Postgres CPU per unit charged, one request at a time):');
  const reader = await createBenchKey(options.databaseUrl, 1_000_000_000, ['buildings:read', 'events:read', 'portfolio:read', 'sources:read']);
  return measureUnitCosts({
    baseUrl: api.baseUrl,
    apiPid: api.api.pid,
    databaseUrl: options.databaseUrl,
    targets: options.targets,
    keys: { ...keys, reader },
    secondsPerRoute: UNIT_COST_SECONDS,
    log: options.log,
  });
}

/**
 * Starts the built API as a process and loads each scenario in turn, then the lookup answered 401 and
 * 429, each of these three followed by the same load on a bare Express app; then the scenarios the
 * caches serve on an API with the caches off; then the bare node:http server.
 */
export async function runHttpBenchmark(options: HttpBenchmarkOptions): Promise<HttpBenchmark> {
  const key = await createBenchKey(options.databaseUrl, 1_000_000_000);
  const limitedKey = await createBenchKey(options.databaseUrl, 1);
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const results: LoadResult[] = [];
  let lookupBodyBytes = 0;
  let memory: ReturnType<typeof readProcessMemory>;
  let express: BareServer | undefined;
  let rounds: NonNullable<HttpBenchmark['toExpressRounds']>;
  let unitCosts: UnitCosts | undefined;
  const expressRuns: Partial<Record<'lookup' | 'unauthorized' | 'rateLimited', LoadResult>> = {};
  const cached = await startApi(options, {});
  try {
    const sample = await fetch(`${cached.baseUrl}/api/v1/buildings/${options.targets.lookupBbls[0]}`, { headers });
    lookupBodyBytes = (await sample.arrayBuffer()).byteLength;
    if (sample.status !== 200) throw new Error(`lookup answered ${sample.status}`);
    const context = { api: cached.api, baseUrl: cached.baseUrl, headers, options };
    express = await BareServer.start('bare Express 5, one route', 'express-server.js', lookupBodyBytes);
    const all = scenarios(options.targets).filter((s) => !options.lookupOnly || s.name === 'lookup');
    for (const scenario of all) {
      results.push(await runScenario(context, scenario));
      // the bare Express app right after the lookup, and after the 401 and 429: the machine is shared, so each
      // ratio compares two loads taken back to back
      if (scenario.name === 'lookup') expressRuns.lookup = await express.load(options);
    }
    for (const scenario of refusedScenarios(options.targets, limitedKey)) {
      results.push(await runScenario(context, scenario));
      expressRuns[scenario.name.includes('401') ? 'unauthorized' : 'rateLimited'] = await express.load(options);
    }
    rounds = await roundsAgainstExpress(context, express, limitedKey);
    if (!options.lookupOnly) unitCosts = await whatUnitsBuy(options, cached, { bench: key, limited: limitedKey });
    memory = readProcessMemory(cached.api.pid);
  } finally {
    await cached.api.stop();
    await express?.stop();
  }

  if (!options.lookupOnly) {
    const uncached = await startApi(options, NO_CACHE_ENV);
    try {
      const context = { api: uncached.api, baseUrl: uncached.baseUrl, headers, options };
      for (const scenario of scenarios(options.targets).filter((s) => WITHOUT_CACHES.includes(s.name))) {
        results.push(await runScenario(context, scenario, `${scenario.name} (caches off)`));
      }
    } finally {
      await uncached.api.stop();
    }
  }

  const ceiling = await loadCeiling(options, lookupBodyBytes);
  const find = (prefix: string): LoadResult | undefined => results.find((r) => r.name.startsWith(prefix));
  const adjacent = (which: keyof typeof expressRuns): LoadResult => {
    const run = expressRuns[which];
    if (!run) throw new Error(`no Express run next to the ${which} scenario`);
    return run;
  };
  const toExpress = { lookup: rounds.lookup.median, unauthorized: rounds.unauthorized.median, rateLimited: rounds.rateLimited.median };
  const singleRuns = {
    lookup: ratio(find('lookup'), adjacent('lookup')),
    unauthorized: ratio(find('lookup without a key'), adjacent('unauthorized')),
    rateLimited: ratio(find('lookup over'), adjacent('rateLimited')),
  };
  options.log(`  single 12 s runs, back to back: lookup / Express ${singleRuns.lookup}, 401 / Express ${singleRuns.unauthorized}, 429 / Express ${singleRuns.rateLimited}`);
  options.log(`  lookup / Express ${toExpress.lookup}, 401 / Express ${toExpress.unauthorized}, 429 / Express ${toExpress.rateLimited}`);
  return {
    connections: options.connections,
    secondsPerScenario: options.secondsPerScenario,
    apiEnv: { LOG_LEVEL: 'info (access log to a file)', NODE_ENV: 'production', DATABASE_POOL_SIZE: '20 (default)', DOCUMENT_CACHE_MB: '256 (default)', EVENTS_CACHE_MB: '64 (default)', ...API_ENV },
    lookupBodyBytes,
    scenarios: results,
    ceiling,
    express: combined([adjacent('lookup'), adjacent('unauthorized'), adjacent('rateLimited')]),
    lookupToCeilingRatio: ratio(find('lookup'), ceiling),
    toExpress,
    toExpressRounds: rounds,
    apiPeakRssBytes: memory.peakRssBytes,
    apiRssAfterBytes: memory.rssBytes,
    unitCosts,
  };
}
