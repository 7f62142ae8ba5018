import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { Client } from 'pg';
import { HttpTargets } from './targets';

/** What one rate-limit unit of a route buys: the CPU of the API and of its Postgres backends per unit charged. */
export interface UnitCost {
  route: string;
  requests: number;
  /** units charged in all (the `X-RateLimit-Cost` of each answer) */
  units: number;
  apiCpuMs: number;
  postgresCpuMs: number;
  cpuMsPerUnit: number;
  /** cpuMsPerUnit divided by that of the cached lookup */
  toCachedLookup: number;
  statuses: Record<string, number>;
}

export interface UnitCosts {
  /** seconds of requests per route, one at a time on one connection */
  secondsPerRoute: number;
  /** no route may buy more than this many cached lookups' CPU per unit */
  target: number;
  rows: UnitCost[];
  /** set when the table was measured by another run than the figures around it: when, and by which command */
  measured?: { at: string; command: string };
}

/** The target of docs/security.md ("Cost before work"): no unit buys more than 20 cached lookups. */
const TARGET_TO_LOOKUP = 20;
/** Linux's clock ticks per second (USER_HZ), the unit of /proc/<pid>/stat times. */
const TICKS_PER_SECOND = 100;

interface RouteRequest {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

interface RouteProbe {
  route: string;
  /** a new request each time (cycling through the city's buildings) */
  next: () => RouteRequest;
  /** the key to use (default: the bench key) */
  key?: 'bench' | 'reader' | 'none' | 'limited';
  /** told of each answer's body */
  onAnswer?: (body: string) => void;
}

/** CPU time of a process so far (user + system), in ms, or 0 once it is gone. */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** The CPU of the Postgres backends serving the benchmark database (the API's pool and listener), by pid. */
async function backendCpu(monitor: Client): Promise<Map<number, number>> {
  const { rows } = await monitor.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`);
  return new Map(rows.map((r) => [r.pid, cpuMs(r.pid)]));
}

function cycle<T>(items: readonly T[]): () => T {
  let i = 0;
  return () => items[i++ % items.length] as T;
}

function probes(targets: HttpTargets, monitorId: string, webhookUrl: string): RouteProbe[] {
  const cached = cycle(targets.lookupBbls.slice(0, 200));
  const address = cycle(targets.typedAddresses);
  const batch = JSON.stringify({ bbls: targets.lookupBbls.slice(0, 500) });
  const portfolio = JSON.stringify({ bbls: targets.portfolioBbls });
  const json = { 'content-type': 'application/json' };
  const bomb = gzipSync(`{"bbls":[${'{},'.repeat(3_495_250)}{}]}`, { level: 9 });
  const monitor = JSON.stringify({ name: 'bench', webhook_url: webhookUrl, bbls: targets.portfolioBbls });
  let created: string | undefined;
  return [
    { route: 'GET /buildings/{bbl} (cached lookup)', next: () => ({ method: 'GET', path: `/api/v1/buildings/${cached()}` }) },
    { route: 'GET /buildings/{bbl}/events (light building)', next: () => ({ method: 'GET', path: `/api/v1/buildings/${targets.lightBuilding.bbl}/events` }) },
    { route: 'GET /buildings/{bbl}/events (heaviest building)', next: () => ({ method: 'GET', path: `/api/v1/buildings/${targets.heavyBuilding.bbl}/events` }) },
    { route: 'GET /buildings/{bbl}/trajectory', next: () => ({ method: 'GET', path: `/api/v1/buildings/${cached()}/trajectory` }) },
    { route: 'GET /buildings/search (typed address)', next: () => ({ method: 'GET', path: `/api/v1/buildings/search?address=${encodeURIComponent(address())}` }) },
    { route: 'POST /buildings/batch (500)', next: () => ({ method: 'POST', path: '/api/v1/buildings/batch', headers: json, body: batch }) },
    { route: 'POST /portfolio/analyze (10,000)', next: () => ({ method: 'POST', path: '/api/v1/portfolio/analyze', headers: json, body: portfolio }) },
    { route: 'POST /export/csv (10,000 BBLs)', next: () => ({ method: 'POST', path: '/api/v1/export/csv', headers: json, body: portfolio }) },
    {
      // a created monitor is deleted by the next request: both are counted (and the monitors per key stay few)
      route: 'POST /portfolio/monitor (10,000), then DELETE it',
      next: () => {
        const id = created;
        created = undefined;
        return id !== undefined ? { method: 'DELETE', path: `/api/v1/portfolio/monitor/${id}` } : { method: 'POST', path: '/api/v1/portfolio/monitor', headers: json, body: monitor };
      },
      onAnswer: (body) => {
        if (body.includes('"secret"')) created = /"id":"([0-9a-f-]{36})"/.exec(body)?.[1];
      },
    },
    { route: 'GET /portfolio/monitor/{id} (10,000 BBLs)', next: () => ({ method: 'GET', path: `/api/v1/portfolio/monitor/${monitorId}` }) },
    { route: 'GET /portfolio/monitor (list)', next: () => ({ method: 'GET', path: '/api/v1/portfolio/monitor' }) },
    { route: 'POST /portfolio/monitor/{id}/test', next: () => ({ method: 'POST', path: `/api/v1/portfolio/monitor/${monitorId}/test` }) },
    { route: 'GET /sources', next: () => ({ method: 'GET', path: '/api/v1/sources' }) },
    { route: 'GET /health (no key)', key: 'none', next: () => ({ method: 'GET', path: '/api/v1/health' }) },
    { route: 'GET /buildings/{bbl} without a key (401)', key: 'none', next: () => ({ method: 'GET', path: `/api/v1/buildings/${cached()}` }) },
    { route: 'GET /buildings/{bbl} over the limit (429)', key: 'limited', next: () => ({ method: 'GET', path: `/api/v1/buildings/${cached()}` }) },
    {
      route: 'POST /portfolio/monitor, 10 KB gzip of 10 MiB, key without portfolio:write (403)',
      key: 'reader',
      next: () => ({ method: 'POST', path: '/api/v1/portfolio/monitor', headers: { ...json, 'content-encoding': 'gzip' }, body: bomb }),
    },
    { route: 'POST /portfolio/monitor, the same gzip bomb (413)', next: () => ({ method: 'POST', path: '/api/v1/portfolio/monitor', headers: { ...json, 'content-encoding': 'gzip' }, body: bomb }) },
  ];
}

export interface UnitCostOptions {
  baseUrl: string;
  apiPid: number;
  databaseUrl: string;
  targets: HttpTargets;
  keys: { bench: string; reader: string; limited: string };
  secondsPerRoute: number;
  log: (line: string) => void;
}

/** Creates the monitor the read and test probes use (10,000 BBLs), with a public IP literal as target (no DNS needed). */
async function createMonitor(options: UnitCostOptions, webhookUrl: string): Promise<string> {
  const res = await fetch(`${options.baseUrl}/api/v1/portfolio/monitor`, {
    method: 'POST',
    headers: { authorization: `Bearer ${options.keys.bench}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench reads', webhook_url: webhookUrl, bbls: options.targets.portfolioBbls }),
  });
  const text = await res.text();
  const id = /"id":"([0-9a-f-]{36})"/.exec(text)?.[1];
  if (res.status !== 201 || !id) throw new Error(`creating the benchmark monitor answered ${res.status}: ${text.slice(0, 300)}`);
  return id;
}

/**
 * Sends each route's requests one at a time for `secondsPerRoute` and divides the CPU the API
 * process and the database's Postgres backends spent by the units charged. The load generator's own
 * CPU is not counted; the backends of other databases are not either.
 */
export async function measureUnitCosts(options: UnitCostOptions): Promise<UnitCosts> {
  // TEST-NET-3 (RFC 5737) is refused as a target; 93.184.215.14 is a public address (example.com's)
  const webhookUrl = 'https://93.184.215.14/hook';
  const monitorId = await createMonitor(options, webhookUrl);
  const monitor = new Client({ connectionString: options.databaseUrl });
  await monitor.connect();
  const rows: Omit<UnitCost, 'toCachedLookup'>[] = [];
  try {
    for (const probe of probes(options.targets, monitorId, webhookUrl)) {
      const key = probe.key ?? 'bench';
      const auth: Record<string, string> = key === 'none' ? {} : { authorization: `Bearer ${options.keys[key]}` };
      // a warm-up: JIT, caches and pooled connections, as a day of traffic would have them
      for (let i = 0; i < 3; i++) await send(options.baseUrl, probe.next(), auth, probe.onAnswer);
      const pgBefore = await backendCpu(monitor);
      const apiBefore = cpuMs(options.apiPid);
      const statuses: Record<string, number> = {};
      let units = 0;
      let requests = 0;
      const until = Date.now() + options.secondsPerRoute * 1000;
      while (Date.now() < until || requests < 5) {
        const answer = await send(options.baseUrl, probe.next(), auth, probe.onAnswer);
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
        units += answer.cost;
        requests += 1;
      }
      const apiCpuMs = cpuMs(options.apiPid) - apiBefore;
      const pgAfter = await backendCpu(monitor);
      let postgresCpuMs = 0;
      for (const [pid, ms] of pgAfter) postgresCpuMs += ms - (pgBefore.get(pid) ?? 0);
      const cpuMsPerUnit = units > 0 ? (apiCpuMs + postgresCpuMs) / units : Infinity;
      rows.push({ route: probe.route, requests, units, apiCpuMs, postgresCpuMs, cpuMsPerUnit, statuses });
      options.log(`  ${probe.route}: ${requests} requests, ${units} units, API ${apiCpuMs} ms + Postgres ${postgresCpuMs} ms CPU = ${cpuMsPerUnit.toFixed(3)} ms a unit`);
    }
  } finally {
    await monitor.end();
  }
  const lookup = rows[0]?.cpuMsPerUnit ?? 0;
  return {
    secondsPerRoute: options.secondsPerRoute,
    target: TARGET_TO_LOOKUP,
    rows: rows.map((r) => ({ ...r, toCachedLookup: lookup > 0 ? Math.round((r.cpuMsPerUnit / lookup) * 10) / 10 : 0 })),
  };
}

/** One request, its whole answer read; the units it was charged (1 when the answer names none). */
async function send(baseUrl: string, req: RouteRequest, auth: Record<string, string>, onAnswer?: (body: string) => void): Promise<{ status: number; cost: number }> {
  const res = await fetch(`${baseUrl}${req.path}`, {
    method: req.method,
    headers: { ...auth, ...req.headers },
    body: req.body === undefined ? undefined : typeof req.body === 'string' ? req.body : new Uint8Array(req.body),
  });
  const body = await res.text();
  onAnswer?.(body);
  return { status: res.status, cost: Number(res.headers.get('x-ratelimit-cost') ?? 1) || 1 };
}
