import autocannon from 'autocannon';
import { PeakRssSampler } from '../data-setup';

export interface LoadRequest {
  method: 'GET' | 'POST';
  /** a new path (and body) for every request */
  next: () => { path: string; body?: string };
}

export interface LoadOptions {
  name: string;
  baseUrl: string;
  connections: number;
  durationSeconds: number;
  headers: Record<string, string>;
  request: LoadRequest;
  /** stop after this many requests (all of them answered) instead of after the duration */
  amount?: number;
  /** requests per second over all connections; unset = as fast as possible */
  overallRate?: number;
  /** the server's pid, to sample its memory during the run */
  serverPid?: number;
}

export interface LoadResult {
  name: string;
  connections: number;
  durationSeconds: number;
  requests: number;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
  megabytesPerSecond: number;
  errors: number;
  timeouts: number;
  statusCounts: Record<string, number>;
  serverPeakRssBytes: number | null;
}

/** One autocannon run against a loopback URL. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const url = new URL(options.baseUrl);
  if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') throw new Error(`load is only ever sent to loopback, not ${url.hostname}`);
  const sampler = options.serverPid !== undefined ? new PeakRssSampler(options.serverPid, 200) : null;
  const result = await autocannon({
    url: options.baseUrl,
    connections: options.connections,
    duration: options.durationSeconds,
    ...(options.amount !== undefined ? { amount: options.amount } : {}),
    headers: options.headers,
    overallRate: options.overallRate,
    requests: [
      {
        method: options.request.method,
        setupRequest: (request) => {
          const next = options.request.next();
          return { ...request, path: next.path, ...(next.body !== undefined ? { body: next.body } : {}) };
        },
      },
    ],
  });
  const serverPeakRssBytes = sampler ? await sampler.stop() : null;
  const statusCounts: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCounts[code] = stat.count ?? 0;
  return {
    name: options.name,
    connections: options.connections,
    durationSeconds: result.duration,
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.total / result.duration),
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    latencyMaxMs: result.latency.max,
    megabytesPerSecond: Math.round((result.throughput.average / 1e6) * 10) / 10,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCounts,
    serverPeakRssBytes,
  };
}
