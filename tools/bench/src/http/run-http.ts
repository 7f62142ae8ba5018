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

function scenarios(targets: HttpTargets): { name: string; request: LoadRequest }[] {
  const lookup = cycle(targets.lookupBbls);
  const address = cycle(targets.typedAddresses);
  const batch = cycle(bodies(targets.lookupBbls, 500, 40));
  const portfolio = JSON.stringify({ bbls: targets.portfolioBbls });
  return [
    { name: 'lookup', request: { method: 'GET', next: () => ({ path: `/api/v1/buildings/${lookup()}` }) } },
    { name: 'events page, light building', request: { method: 'GET', next: () => ({ path: `/api/v1/buildings/${targets.lightBuilding.bbl}/events` }) } },
    { name: 'events page, heaviest building', request: { method: 'GET', next: () => ({ path: `/api/v1/buildings/${targets.heavyBuilding.bbl}/events` }) } },
    { name: 'search by typed address', request: { method: 'GET', next: () => ({ path: `/api/v1/buildings/search?address=${encodeURIComponent(address())}` }) } },
    { name: 'batch of 500', request: { method: 'POST', next: () => ({ path: '/api/v1/buildings/batch', body: batch() }) } },
    { name: 'portfolio analyze 10,000', request: { method: 'POST', next: () => ({ path: '/api/v1/portfolio/analyze', body: portfolio }) } },
    { name: 'CSV export 10,000', request: { method: 'POST', next: () => ({ path: '/api/v1/export/csv', body: portfolio }) } },
  ];
}

/** Starts the built API as a process and the bare ceiling server, and loads each in turn. */
export async function runHttpBenchmark(options: HttpBenchmarkOptions): Promise<HttpBenchmark> {
  const key = await createBenchKey(options.databaseUrl);
  const port = await freePort();
  const apiEnv = { DATABASE_URL: options.databaseUrl, REDIS_PREFIX: options.redisPrefix, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', NODE_ENV: 'production' };
  const api = NodeProcess.app('api', apiEnv);
  const baseUrl = `http://127.0.0.1:${port}`;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  let ceilingServer: NodeProcess | null = null;
  try {
    await waitForHealth(baseUrl);
    const sample = await fetch(`${baseUrl}/api/v1/buildings/${options.targets.lookupBbls[0]}`, { headers });
    const lookupBodyBytes = (await sample.arrayBuffer()).byteLength;
    if (sample.status !== 200) throw new Error(`lookup answered ${sample.status}`);

    const results: LoadResult[] = [];
    for (const scenario of scenarios(options.targets)) {
      // a warm-up (JIT, connection pools, Postgres caches) that lets every request finish: a run cut
      // short by its duration aborts the requests in flight, which must not weigh on the next scenario
      await runLoad({ name: 'warm-up', baseUrl, connections: options.connections, durationSeconds: 60, amount: options.connections * 3, headers, request: scenario.request });
      const result = await runLoad({
        name: scenario.name,
        baseUrl,
        connections: options.connections,
        durationSeconds: options.secondsPerScenario,
        headers,
        request: scenario.request,
        serverPid: api.pid,
      });
      if (api.exited) throw new Error(`the API process exited during "${scenario.name}":\n${api.output.slice(-2000)}`);
      options.log(`  ${scenario.name}: ${result.requestsPerSecond} req/s, p50 ${result.latencyP50Ms} ms, p99 ${result.latencyP99Ms} ms, statuses ${JSON.stringify(result.statusCounts)}`);
      results.push(result);
    }
    const memory = readProcessMemory(api.pid);

    ceilingServer = NodeProcess.script('ceiling', path.join(__dirname, 'ceiling-server.js'), [String(lookupBodyBytes)], {});
    await ceilingServer.waitFor(/listening \d+/);
    const ceilingPort = /listening (\d+)/.exec(ceilingServer.output)?.[1] ?? '';
    const ceilingUrl = `http://127.0.0.1:${ceilingPort}`;
    const ceilingRequest: LoadRequest = { method: 'GET', next: () => ({ path: '/api/v1/buildings/1000010001' }) };
    await runLoad({ name: 'warm-up', baseUrl: ceilingUrl, connections: options.connections, durationSeconds: 2, headers, request: ceilingRequest });
    const ceiling = await runLoad({
      name: 'bare node:http JSON (ceiling)',
      baseUrl: ceilingUrl,
      connections: options.connections,
      durationSeconds: options.secondsPerScenario,
      headers,
      request: ceilingRequest,
      serverPid: ceilingServer.pid,
    });
    options.log(`  ceiling: ${ceiling.requestsPerSecond} req/s, p99 ${ceiling.latencyP99Ms} ms`);
    const lookup = results[0];
    return {
      connections: options.connections,
      secondsPerScenario: options.secondsPerScenario,
      apiEnv: { LOG_LEVEL: apiEnv.LOG_LEVEL, NODE_ENV: apiEnv.NODE_ENV, DATABASE_POOL_SIZE: '20 (default)' },
      lookupBodyBytes,
      scenarios: results,
      ceiling,
      lookupToCeilingRatio: lookup ? Math.round((lookup.requestsPerSecond / ceiling.requestsPerSecond) * 1000) / 1000 : 0,
      apiPeakRssBytes: memory.peakRssBytes,
      apiRssAfterBytes: memory.rssBytes,
    };
  } finally {
    await ceilingServer?.stop();
    await api.stop();
  }
}
