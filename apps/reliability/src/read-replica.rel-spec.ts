import { execFileSync } from 'node:child_process';
import autocannon from 'autocannon';
import { poll, testRedisPrefix } from '@bhis/testing';
import { createKey, expectRevokedEverywhere, revokeKey, RunningApi, startApi } from './support/api';
import { send } from './support/http';
import { MODE, TEST_TIMEOUT_MS } from './support/mode';
import { recordResult } from './support/results';
import { databaseUrl, seededTemplate } from './support/seeded-city';
import { StreamingPair } from './support/streaming-pair';

const DATABASE = 'bhis';
const LOAD_SECONDS = MODE === 'ci' ? 4 : 15;
const CONNECTIONS = 16;

interface Health {
  data: { checks: { postgres_replicas?: { status: string; reads_from: string; replicas: { status: string; in_use: boolean; lag_ms: number | null; lag_bytes: number | null }[] } } };
}

function lookupLoad(url: string, key: string, bbls: string[], seconds: number): Promise<autocannon.Result> {
  let i = 0;
  return autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { authorization: `Bearer ${key}` },
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/api/v1/buildings/${bbls[i++ % bbls.length]}` }) }],
  });
}

function statusCounts(result: autocannon.Result): Record<string, number> {
  return Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count ?? 0]));
}

describe('two API instances reading from a streaming replica', () => {
  let pair: StreamingPair;
  let primaryUrl: string;
  const apis: RunningApi[] = [];
  let key: string;
  /** The replicas' lag is shown only to a key that may read the metrics. */
  let scraperKey: string;
  let bbls: string[];

  beforeAll(async () => {
    pair = await StreamingPair.create(DATABASE);
    primaryUrl = pair.url(pair.primaryPort, DATABASE);
    // the seeded city's schema and its buildings and scores, copied from its template on the local cluster
    execFileSync('bash', ['-o', 'pipefail', '-c', `pg_dump --schema-only --no-owner "$SRC" | psql -q -v ON_ERROR_STOP=1 "$DST" && pg_dump --data-only --table=buildings --table=building_scores "$SRC" | psql -q -v ON_ERROR_STOP=1 "$DST"`], {
      env: { ...process.env, SRC: databaseUrl(await seededTemplate()), DST: primaryUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await pair.startReplica();
    await pair.waitForReplay(DATABASE);
    key = (await createKey(primaryUrl, { rateLimitPerMin: 1_000_000_000 })).key;
    scraperKey = (await createKey(primaryUrl, { scopes: ['metrics:read'], rateLimitPerMin: 1_000_000_000 })).key;
    bbls = await pair.admin(pair.primaryPort, async (c) => (await c.query<{ bbl: string }>('SELECT bbl FROM building_scores ORDER BY md5(bbl)')).rows.map((r) => r.bbl.trim()), DATABASE);
    const env = {
      DATABASE_URL: primaryUrl,
      DATABASE_READ_URL: pair.url(pair.replicaPort, DATABASE),
      REDIS_PREFIX: testRedisPrefix(),
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      // every lookup reaches Postgres, so that the load shows where reads go
      DOCUMENT_CACHE_MB: '0',
    };
    apis.push(...(await Promise.all([startApi(env), startApi(env)])));
  }, 600_000);

  afterAll(async () => {
    for (const api of apis) await api.process.stop();
    await pair?.destroy();
  }, 120_000);

  const health = async (api: RunningApi): Promise<Health['data']['checks']['postgres_replicas']> => {
    const res = await send(api.port, { method: 'GET', path: '/api/v1/health', headers: { authorization: `Bearer ${scraperKey}` } });
    expect(res.status).toBe(200);
    return (JSON.parse(res.body) as Health).data.checks.postgres_replicas;
  };
  const get = (api: RunningApi, path: string, auth = key) => send(api.port, { method: 'GET', path, headers: { authorization: `Bearer ${auth}` } });
  const score = async (api: RunningApi, bbl: string): Promise<number> => (JSON.parse((await get(api, `/api/v1/buildings/${bbl}`)).body) as { data: { scores: { total_score: number } } }).data.scores.total_score;
  const transactionsOn = (port: number) =>
    pair.admin(port, async (c) => Number((await c.query<{ n: string }>(`SELECT xact_commit::text AS n FROM pg_stat_database WHERE datname = $1`, [DATABASE])).rows[0]?.n), DATABASE);

  it('reads published data from the replica and reports its lag in /health', async () => {
    const states = await Promise.all(apis.map((api) => poll('the replica in use', async () => ((await health(api))?.reads_from === 'replicas' ? health(api) : null), 30_000, 200)));
    for (const state of states) expect(state?.replicas).toEqual([expect.objectContaining({ status: 'up', in_use: true, lag_ms: expect.any(Number), lag_bytes: expect.any(Number) })]);
    const before = { replica: await transactionsOn(pair.replicaPort), primary: await transactionsOn(pair.primaryPort) };
    for (const bbl of bbls.slice(0, 50)) for (const api of apis) expect((await get(api, `/api/v1/buildings/${bbl}`)).status).toBe(200);
    // 100 lookups, one statement each on the replica (Postgres publishes the counts within a second or so)
    await poll('the lookups counted on the replica', async () => ((await transactionsOn(pair.replicaPort)) - before.replica >= 100 ? true : null), 10_000, 200);
    // the primary saw the probes and the key usage, not the lookups
    expect((await transactionsOn(pair.primaryPort)) - before.primary).toBeLessThan(100);
  }, TEST_TIMEOUT_MS);

  it('never lets a lagging replica undo a revocation, a monitor change or a rescore', async () => {
    await pair.admin(pair.replicaPort, (c) => c.query('SELECT pg_wal_replay_pause()'), DATABASE);
    try {
      const [a, b] = apis as [RunningApi, RunningApi];
      const revoked = await createKey(primaryUrl, { name: 'to revoke' });
      expect((await get(a, `/api/v1/buildings/${bbls[0]}`, revoked.key)).status).toBe(200);
      await revokeKey(primaryUrl, revoked.id);
      // the replica has not replayed the revocation: the key is checked on the primary
      await expectRevokedEverywhere((i) => get(apis[i] as RunningApi, `/api/v1/buildings/${bbls[0]}`, revoked.key), apis.length);

      const created = await send(a.port, {
        method: 'POST',
        path: '/api/v1/portfolio/monitor',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'lag', bbls: bbls.slice(0, 3), webhook_url: 'http://127.0.0.1:9/hook' }),
      });
      expect(created.status).toBe(201);
      const monitorId = (JSON.parse(created.body) as { data: { monitor: { id: string } } }).data.monitor.id;
      expect((await get(b, `/api/v1/portfolio/monitor/${monitorId}`)).status).toBe(200);
      expect((await send(b.port, { method: 'DELETE', path: `/api/v1/portfolio/monitor/${monitorId}`, headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
      expect((await get(a, `/api/v1/portfolio/monitor/${monitorId}`)).status).toBe(404);

      // a rescore the replica has not replayed: once the primary announces it, reads go to the primary
      const bbl = bbls[1] ?? '';
      const old = await score(a, bbl);
      const changed = old === 100 ? 99 : old + 1;
      await pair.admin(pair.primaryPort, (c) => c.query(`UPDATE building_scores SET total_score = $2::int, document = jsonb_set(document::jsonb, '{scores,total_score}', to_jsonb($2::int))::json WHERE bbl = $1`, [bbl, changed]), DATABASE);
      const seen = await Promise.all(apis.map((api) => poll('the new score', async () => ((await score(api, bbl)) === changed ? true : null), 10_000, 20)));
      expect(seen).toEqual([true, true]);
      for (let n = 0; n < 20; n++) for (const api of apis) expect(await score(api, bbl)).toBe(changed);
      const paused = await health(a);
      expect(paused?.reads_from).toBe('primary');
      expect(paused?.replicas[0]?.lag_bytes).toBeGreaterThan(0);
      recordResult('read-replica-lag', { pausedReplica: paused?.replicas[0] });
    } finally {
      await pair.admin(pair.replicaPort, (c) => c.query('SELECT pg_wal_replay_resume()'), DATABASE);
    }
    await poll('the replica back in use', async () => ((await health(apis[0] as RunningApi))?.reads_from === 'replicas' ? true : null), 30_000, 100);
  }, TEST_TIMEOUT_MS);

  it('falls back to the primary with no error when the replica stops under load, and measures both', async () => {
    const [a, b] = apis as [RunningApi, RunningApi];
    // warm the replica's buffer cache (the primary's is warm from loading the city)
    await Promise.all([lookupLoad(a.url, key, bbls, LOAD_SECONDS / 2), lookupLoad(b.url, key, bbls, LOAD_SECONDS / 2)]);
    const withReplica = await Promise.all([lookupLoad(a.url, key, bbls, LOAD_SECONDS), lookupLoad(b.url, key, bbls, LOAD_SECONDS)]);

    const underLoad = Promise.all([lookupLoad(a.url, key, bbls, LOAD_SECONDS), lookupLoad(b.url, key, bbls, LOAD_SECONDS)]);
    await new Promise((r) => setTimeout(r, (LOAD_SECONDS * 1000) / 3));
    pair.stopReplica();
    const duringStop = await underLoad;

    const withoutReplica = await Promise.all([lookupLoad(a.url, key, bbls, LOAD_SECONDS), lookupLoad(b.url, key, bbls, LOAD_SECONDS)]);
    const state = await health(a);

    const summary = (results: autocannon.Result[]) => ({
      requestsPerSecond: Math.round(results.reduce((s, r) => s + r.requests.total / r.duration, 0)),
      p99Ms: Math.max(...results.map((r) => r.latency.p99)),
      statuses: results.map(statusCounts),
    });
    recordResult('read-replica-failover', {
      instances: 2,
      connectionsPerInstance: CONNECTIONS,
      seconds: LOAD_SECONDS,
      withReplica: summary(withReplica),
      replicaStoppedDuringRun: summary(duringStop),
      primaryOnly: summary(withoutReplica),
    });
    for (const result of [...withReplica, ...duringStop, ...withoutReplica]) {
      expect(Object.keys(statusCounts(result))).toEqual(['200']);
      expect(result.errors + result.timeouts).toBe(0);
    }
    expect(state?.reads_from).toBe('primary');
    expect(state?.replicas[0]?.status).toBe('down');
  }, TEST_TIMEOUT_MS);
});
