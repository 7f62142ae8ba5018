import { Pool } from 'pg';
import { createKey, RunningApi, startApi } from './support/api';
import { errorCode, send } from './support/http';
import { BackgroundProbe, poll } from '@bhis/testing';
import { NodeProcess } from '@bhis/testing';
import { PrivateRedis } from './support/redis-server';
import { TEST_TIMEOUT_MS } from './support/mode';
import { recordResult } from './support/results';
import { runCliJson } from '@bhis/testing';
import { CITY_AS_OF, cloneSeededCity, redisPrefix, SeededDatabase, seedCityFiles } from './support/seeded-city';

const LIMITED_PER_MIN = 30;
const JOB_SOURCES = ['hpd_litigations', 'dob_vacate_orders', 'hpd_aep', 'dof_tax_liens', 'fdny_vacates'];

describe('Redis restarted (kill -9) under load', () => {
  let db: SeededDatabase;
  let pool: Pool;
  let redis: PrivateRedis;
  let api: RunningApi | undefined;
  const workers: NodeProcess[] = [];

  beforeAll(async () => {
    db = await cloneSeededCity();
    pool = new Pool({ connectionString: db.url, max: 2 });
    redis = await PrivateRedis.start();
  }, 600_000);

  afterAll(async () => {
    for (const w of workers) await w.stop();
    await api?.process.stop();
    await redis?.stop();
    await pool?.end();
    await db?.drop();
  }, 120_000);

  it('keeps serving (rate limits fall back to per-instance memory), recovers without a restart, and loses no queued job', async () => {
    const started = Date.now();
    const env = { DATABASE_URL: db.url, REDIS_URL: redis.url, REDIS_PREFIX: redisPrefix() };
    const big = await createKey(db.url, { rateLimitPerMin: 100_000_000 });
    const limited = await createKey(db.url, { rateLimitPerMin: LIMITED_PER_MIN, name: 'limited' });
    api = await startApi(env);
    const port = api.port;
    const { rows } = await pool.query<{ bbl: string }>(`SELECT bbl FROM building_scores ORDER BY bbl LIMIT 50`);
    const bbls = rows.map((r) => r.bbl.trim());

    // jobs queued while no worker runs: they exist only in Redis
    const { files } = await seedCityFiles();
    const runIds: string[] = [];
    for (const source of JOB_SOURCES) {
      const file = files.find((f) => f.source === source);
      if (!file) throw new Error(`the seeded city has no ${source} file`);
      const queued = await runCliJson<{ run_id: string }>(['ingest', '--source', source, '--file', file.file, '--observed-on', CITY_AS_OF, '--force', '--json'], env);
      runIds.push(queued.run_id);
    }
    const scoring = await runCliJson<{ run_id: string }>(['score', '--full', '--as-of', CITY_AS_OF, '--json'], env);

    let i = 0;
    const probe = new BackgroundProbe(async () => {
      const res = await send(port, { method: 'GET', path: `/api/v1/buildings/${bbls[i++ % bbls.length]}`, headers: { authorization: `Bearer ${big.key}` } });
      return { status: res.status, limitHeader: res.headers['x-ratelimit-limit'] !== undefined };
    }, 5);
    await new Promise((r) => setTimeout(r, 1_000));

    const outageStarted = Date.now();
    await redis.kill9();
    await new Promise((r) => setTimeout(r, 500));
    const health = await send(port, { method: 'GET', path: '/api/v1/health', headers: {} });
    // the limited key, only ever used during the outage: the same limit, enforced in the instance's memory
    const limitedStatuses: number[] = [];
    for (let n = 0; n < LIMITED_PER_MIN + 10; n++) {
      const res = await send(port, { method: 'GET', path: `/api/v1/buildings/${bbls[n % bbls.length]}`, headers: { 'x-api-key': limited.key } });
      limitedStatuses.push(res.status);
      if (res.status === 429) expect(errorCode(res.body)).toBe('rate_limit_exceeded');
    }
    await new Promise((r) => setTimeout(r, 2_000));
    await redis.restart();
    const outageSeconds = (Date.now() - outageStarted) / 1000;
    await poll('the API health to be 200 again', async () => ((await send(port, { method: 'GET', path: '/api/v1/health', headers: {} })).status === 200 ? true : null), 60_000, 250);
    const recoveredAfter = (Date.now() - outageStarted) / 1000;
    await new Promise((r) => setTimeout(r, 1_000));
    const reads = await probe.stop();

    // the queued jobs survived; workers started now process each of them
    workers.push(NodeProcess.app('ingest', { ...env, LOG_LEVEL: 'info' }), NodeProcess.app('scoring', { ...env, LOG_LEVEL: 'info' }));
    const runs = await poll('every queued run to finish', async () => {
      const res = await pool.query<{ id: string; status: string; attempt: number }>(`SELECT id, status, attempt FROM ingest_runs WHERE id = ANY($1::uuid[])`, [runIds]);
      const sc = await pool.query<{ status: string }>(`SELECT status FROM scoring_runs WHERE id = $1`, [scoring.run_id]);
      const done = res.rows.every((r) => r.status === 'succeeded' || r.status === 'failed') && ['succeeded', 'failed'].includes(sc.rows[0]?.status ?? '');
      return done ? { ingest: res.rows, scoring: sc.rows[0]?.status } : null;
    }, 300_000, 500);

    const statusCounts: Record<string, number> = {};
    for (const r of reads) statusCounts[String(r.status)] = (statusCounts[String(r.status)] ?? 0) + 1;
    recordResult('redis-restart', {
      outageSeconds,
      recoveredAfterSeconds: recoveredAfter,
      healthDuringOutage: health.status,
      readsUnderLoad: reads.length,
      statusCounts,
      limitedKey: { limit: LIMITED_PER_MIN, ok: limitedStatuses.filter((s) => s === 200).length, refused429: limitedStatuses.filter((s) => s === 429).length },
      queuedJobs: runIds.length + 1,
      jobsSucceeded: runs.ingest.filter((r) => r.status === 'succeeded').length + (runs.scoring === 'succeeded' ? 1 : 0),
      apiRestarted: api.process.exited,
      seconds: (Date.now() - started) / 1000,
    });
    expect(health.status).toBe(503);
    expect(reads.every((r) => r.status === 200 && r.limitHeader)).toBe(true);
    expect(limitedStatuses.filter((s) => s === 200)).toHaveLength(LIMITED_PER_MIN);
    expect(limitedStatuses.filter((s) => s === 429)).toHaveLength(10);
    expect(runs.ingest).toHaveLength(runIds.length);
    expect(runs.ingest.every((r) => r.status === 'succeeded')).toBe(true);
    expect(runs.scoring).toBe('succeeded');
    expect(api.process.exited).toBe(false);
  }, TEST_TIMEOUT_MS);
});
