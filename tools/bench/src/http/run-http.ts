import path from 'node:path';
import { createApiKey, createDataSource } from '@bhis/db';
import { freePort, NodeProcess, readProcessMemory, waitForHealth } from '@bhis/testing';
import { LoadRequest, LoadResult, runLoad } from './load';
import { HttpTargets } from './targets';

export interface HttpBenchmark {
  connections: number;
  secondsPerScenario: number;
  apiEnv: Record<string, string>;
  lookupBodyBytes: number;
  scenarios: LoadResult[];
  ceiling: LoadResult;
  /** lookup req/s divided by the bare server's req/s */
  lookupToCeilingRatio: number;
  apiPeakRssBytes: number;
  apiRssAfterBytes: number;
}

export interface HttpBenchmarkOptions {
  databaseUrl: string;
  redisPrefix: string;
  connections: number;
  secondsPerScenario: number;
  targets: HttpTargets;
  log: (line: string) => void;
}

async function createBenchKey(databaseUrl: string): Promise<string> {
  const ds = createDataSource({ url: databaseUrl, poolSize: 1 });
  await ds.initialize();
  try {
    const created = await createApiKey(ds, { name: 'benchmark', kind: 'live', rateLimitPerMin: 1_000_000_000 });
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
  /** default: the run's connections */
  connections?: number;
  /** requests of the warm-up (default 3 per connection) */
  warmUp?: number;
}

function scenarios(targets: HttpTargets): Scenario[] {
  const lookup = cycle(targets.lookupBbls);
  const address = cycle(targets.typedAddresses);
  const batch = cycle(bodies(targets.lookupBbls, 500, 40));
  const portfolio = JSON.stringify({ bbls: targets.portfolioBbls });
  return [
    // the warm-up asks for every building of the working set once, as a day of traffic would
    { name: 'lookup', warmUp: targets.lookupBbls.length, request: { method: 'GET', next: () => ({ path: `/api/v1/buildings/${lookup()}` }) } },
    { name: 'events page, light building', request: { method: 'GET', next: () => ({ path: `/api/v1/buildings/${targets.lightBuilding.bbl}/events` }) } },
    { name: 'events page, heaviest building', request: { method: 'GET', next: () => ({ path: `/api/v1/buildings/${targets.heavyBuilding.bbl}/events` }) } },
    { name: 'search by typed address', request: { method: 'GET', next: () => ({ path: `/api/v1/buildings/search?address=${encodeURIComponent(address())}` }) } },
    { name: 'batch of 500', request: { method: 'POST', next: () => ({ path: '/api/v1/buildings/batch', body: batch() }) } },
    { name: 'batch of 500, one client', connections: 1, request: { method: 'POST', next: () => ({ path: '/api/v1/buildings/batch', body: batch() }) } },
    { name: 'portfolio analyze 10,000', request: { method: 'POST', next: () => ({ path: '/api/v1/portfolio/analyze', body: portfolio }) } },
    { name: 'CSV export 10,000', request: { method: 'POST', next: () => ({ path: '/api/v1/export/csv', body: portfolio }) } },
  ];
}

/** The scenarios the in-memory caches serve, run again on an API with the caches off. */
const WITHOUT_CACHES = ['lookup', 'events page, heaviest building', 'batch of 500, one client'];
const NO_CACHE_ENV = { DOCUMENT_CACHE_MB: '0', EVENTS_CACHE_MB: '0' };

interface LoadContext {
  api: NodeProcess;
  baseUrl: string;
  headers: Record<string, string>;
  options: HttpBenchmarkOptions;
}

async function startApi(options: HttpBenchmarkOptions, extraEnv: Record<string, string>): Promise<{ api: NodeProcess; baseUrl: string }> {
  const port = await freePort();
  const env = { DATABASE_URL: options.databaseUrl, REDIS_PREFIX: options.redisPrefix, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', NODE_ENV: 'production', ...extraEnv };
  const api = NodeProcess.app('api', env);
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHealth(baseUrl);
  return { api, baseUrl };
}

async function runScenario(context: LoadContext, scenario: Scenario, name = scenario.name): Promise<LoadResult> {
  const { api, baseUrl, headers, options } = context;
  const connections = scenario.connections ?? options.connections;
  // a warm-up (JIT, connection pools, Postgres caches) that lets every request finish: a run cut
  // short by its duration aborts the requests in flight, which must not weigh on the next scenario
  await runLoad({ name: 'warm-up', baseUrl, connections, durationSeconds: 300, amount: scenario.warmUp ?? connections * 3, headers, request: scenario.request });
  const result = await runLoad({ name, baseUrl, connections, durationSeconds: options.secondsPerScenario, headers, request: scenario.request, serverPid: api.pid });
  if (api.exited) throw new Error(`the API process exited during "${name}":\n${api.output.slice(-2000)}`);
  options.log(`  ${name}: ${result.requestsPerSecond} req/s, p50 ${result.latencyP50Ms} ms, p99 ${result.latencyP99Ms} ms, statuses ${JSON.stringify(result.statusCounts)}`);
  return result;
}

/**
 * Starts the built API as a process and loads each scenario in turn; then the scenarios the caches
 * serve on an API with the caches off; then the bare ceiling server.
 */
export async function runHttpBenchmark(options: HttpBenchmarkOptions): Promise<HttpBenchmark> {
  const key = await createBenchKey(options.databaseUrl);
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const results: LoadResult[] = [];
  let lookupBodyBytes = 0;
  let memory: ReturnType<typeof readProcessMemory>;

  const cached = await startApi(options, {});
  try {
    const sample = await fetch(`${cached.baseUrl}/api/v1/buildings/${options.targets.lookupBbls[0]}`, { headers });
    lookupBodyBytes = (await sample.arrayBuffer()).byteLength;
    if (sample.status !== 200) throw new Error(`lookup answered ${sample.status}`);
    const context = { api: cached.api, baseUrl: cached.baseUrl, headers, options };
    for (const scenario of scenarios(options.targets)) results.push(await runScenario(context, scenario));
    memory = readProcessMemory(cached.api.pid);
  } finally {
    await cached.api.stop();
  }

  const uncached = await startApi(options, NO_CACHE_ENV);
  try {
    const context = { api: uncached.api, baseUrl: uncached.baseUrl, headers, options };
    for (const scenario of scenarios(options.targets).filter((s) => WITHOUT_CACHES.includes(s.name))) {
      results.push(await runScenario(context, scenario, `${scenario.name} (caches off)`));
    }
  } finally {
    await uncached.api.stop();
  }

  const ceilingServer = NodeProcess.script('ceiling', path.join(__dirname, 'ceiling-server.js'), [String(lookupBodyBytes)], {});
  let ceiling: LoadResult;
  try {
    await ceilingServer.waitFor(/listening \d+/);
    const ceilingPort = /listening (\d+)/.exec(ceilingServer.output)?.[1] ?? '';
    const ceilingUrl = `http://127.0.0.1:${ceilingPort}`;
    const ceilingRequest: LoadRequest = { method: 'GET', next: () => ({ path: '/api/v1/buildings/1000010001' }) };
    await runLoad({ name: 'warm-up', baseUrl: ceilingUrl, connections: options.connections, durationSeconds: 2, headers, request: ceilingRequest });
    ceiling = await runLoad({
      name: 'bare node:http JSON (ceiling)',
      baseUrl: ceilingUrl,
      connections: options.connections,
      durationSeconds: options.secondsPerScenario,
      headers,
      request: ceilingRequest,
      serverPid: ceilingServer.pid,
    });
  } finally {
    await ceilingServer.stop();
  }
  options.log(`  ceiling: ${ceiling.requestsPerSecond} req/s, p99 ${ceiling.latencyP99Ms} ms`);
  const lookup = results[0];
  return {
    connections: options.connections,
    secondsPerScenario: options.secondsPerScenario,
    apiEnv: { LOG_LEVEL: 'warn', NODE_ENV: 'production', DATABASE_POOL_SIZE: '20 (default)', DOCUMENT_CACHE_MB: '256 (default)', EVENTS_CACHE_MB: '64 (default)' },
    lookupBodyBytes,
    scenarios: results,
    ceiling,
    lookupToCeilingRatio: lookup ? Math.round((lookup.requestsPerSecond / ceiling.requestsPerSecond) * 1000) / 1000 : 0,
    apiPeakRssBytes: memory.peakRssBytes,
    apiRssAfterBytes: memory.rssBytes,
  };
}
