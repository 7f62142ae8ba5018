import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { Pool } from 'pg';
import { QUEUES } from '@bhis/queue';
import { createKey, expectRevokedEverywhere, revokeKey, RunningApi, startApi } from './support/api';
import { errorCode, send } from './support/http';
import { poll } from '@bhis/testing';
import { NodeProcess } from '@bhis/testing';
import { TEST_TIMEOUT_MS } from './support/mode';
import { recordResult } from './support/results';
import { runCliJson } from '@bhis/testing';
import { CITY_AS_OF, cloneSeededCity, redisPrefix, SeededDatabase, seedCityFiles } from './support/seeded-city';

const SHARED_LIMIT = 40;
/** Sources whose files are small enough to load in a few seconds each. */
const JOB_SOURCES = ['hpd_litigations', 'hpd_vacate_orders', 'hpd_aep', 'hpd_underlying_conditions', 'dob_safety_violations', 'dob_vacate_orders', 'dob_facades', 'dof_tax_liens', 'dohmh_rodents', 'evictions', 'fdny_vacates'];
const SCORING_DATES = ['2026-11-01', '2026-10-15', '2026-09-30'];

describe('two API instances and two workers of each kind on the same Postgres and Redis', () => {
  let db: SeededDatabase;
  let pool: Pool;
  const apis: RunningApi[] = [];
  const workers: NodeProcess[] = [];
  const env = { REDIS_PREFIX: redisPrefix() };

  beforeAll(async () => {
    db = await cloneSeededCity();
    pool = new Pool({ connectionString: db.url, max: 2 });
    const common = { ...env, DATABASE_URL: db.url };
    apis.push(await startApi(common), await startApi(common));
    for (const kind of ['ingest', 'scoring', 'ingest', 'scoring'] as const) workers.push(NodeProcess.app(kind, { ...common, LOG_LEVEL: 'info' }));
    for (const w of workers) await w.waitFor(/(ingest|scoring) worker started/);
  }, 600_000);

  afterAll(async () => {
    for (const w of workers) await w.stop();
    for (const a of apis) await a.process.stop();
    await pool?.end();
    await db?.drop();
  }, 120_000);

  const bbl = async (): Promise<string> => (await pool.query<{ bbl: string }>(`SELECT bbl FROM building_scores ORDER BY bbl LIMIT 1`)).rows[0]?.bbl.trim() ?? '';

  it('share one rate limit per key', async () => {
    const key = await createKey(db.url, { rateLimitPerMin: SHARED_LIMIT, name: 'shared' });
    const target = await bbl();
    const statuses: { instance: number; status: number; remaining: string }[] = [];
    for (let n = 0; n < SHARED_LIMIT + 20; n++) {
      const instance = n % 2;
      const res = await send(apis[instance]?.port ?? 0, { method: 'GET', path: `/api/v1/buildings/${target}`, headers: { authorization: `Bearer ${key.key}` } });
      statuses.push({ instance, status: res.status, remaining: String(res.headers['x-ratelimit-remaining'] ?? '') });
      if (res.status === 429) expect(errorCode(res.body)).toBe('rate_limit_exceeded');
    }
    const ok = statuses.filter((s) => s.status === 200);
    recordResult('two-instances-rate-limit', { limit: SHARED_LIMIT, sent: statuses.length, ok: ok.length, refused: statuses.length - ok.length, okPerInstance: [0, 1].map((i) => ok.filter((s) => s.instance === i).length) });
    expect(ok).toHaveLength(SHARED_LIMIT);
    expect(statuses.filter((s) => s.status === 429)).toHaveLength(20);
  }, TEST_TIMEOUT_MS);

  it('see a revocation as soon as Postgres announces it, on both instances, and keep refusing the key', async () => {
    const key = await createKey(db.url, { name: 'to revoke' });
    const target = await bbl();
    const get = (i: number) => send(apis[i]?.port ?? 0, { method: 'GET', path: `/api/v1/buildings/${target}`, headers: { authorization: `Bearer ${key.key}` } });
    expect([(await get(0)).status, (await get(1)).status]).toEqual([200, 200]);
    await revokeKey(db.url, key.id);
    recordResult('two-instances-revocation', { refusedEverywhereAfterMs: await expectRevokedEverywhere(get, 2) });
  }, TEST_TIMEOUT_MS);

  it('process every queued job exactly once', async () => {
    const started = Date.now();
    const { files } = await seedCityFiles();
    const cliEnv = { ...env, DATABASE_URL: db.url };
    const ingestRuns: { runId: string; rows: number }[] = [];
    for (const source of JOB_SOURCES) {
      const file = files.find((f) => f.source === source);
      if (!file) throw new Error(`the seeded city has no ${source} file`);
      const queued = await runCliJson<{ run_id: string; job_id: string }>(['ingest', '--source', source, '--file', file.file, '--observed-on', CITY_AS_OF, '--force', '--json'], cliEnv);
      ingestRuns.push({ runId: queued.run_id, rows: file.rows });
    }
    const scoringRuns: { runId: string; jobId: string }[] = [];
    for (const asOf of SCORING_DATES) {
      const queued = await runCliJson<{ run_id: string; job_id: string }>(['score', '--full', '--as-of', asOf, '--force', '--json'], cliEnv);
      scoringRuns.push({ runId: queued.run_id, jobId: queued.job_id });
    }
    const ingest = await poll('every ingest run to finish', async () => {
      const { rows } = await pool.query<{ id: string; status: string; attempt: number; read: string | null }>(
        `SELECT id, status, attempt, counts->>'read' AS read FROM ingest_runs WHERE id = ANY($1::uuid[])`,
        [ingestRuns.map((r) => r.runId)],
      );
      return rows.length === ingestRuns.length && rows.every((r) => ['succeeded', 'failed', 'skipped'].includes(r.status)) ? rows : null;
    }, 300_000, 500);
    const scoring = await poll('every scoring run to finish', async () => {
      const { rows } = await pool.query<{ id: string; status: string }>(`SELECT id, status FROM scoring_runs WHERE id = ANY($1::uuid[])`, [scoringRuns.map((r) => r.runId)]);
      return rows.length === scoringRuns.length && rows.every((r) => r.status === 'succeeded' || r.status === 'failed') ? rows : null;
    }, 300_000, 500);

    const connection = new Redis({ maxRetriesPerRequest: null });
    const queue = new Queue(QUEUES.scoring, { connection, prefix: env.REDIS_PREFIX });
    const ingestQueue = new Queue(QUEUES.ingest, { connection, prefix: env.REDIS_PREFIX });
    try {
      const scoringJobs = await Promise.all(scoringRuns.map((r) => queue.getJob(r.jobId)));
      const ingestJobs = (await ingestQueue.getJobs(['completed', 'failed'])).filter((j) => ingestRuns.some((r) => (j.data as { runId?: string }).runId === r.runId));
      const attemptsStarted = [...scoringJobs, ...ingestJobs].map((j) => j?.attemptsStarted ?? -1);
      const history = await pool.query<{ as_of: string; n: number }>(`SELECT to_char(as_of, 'YYYY-MM-DD') AS as_of, count(*)::int AS n FROM score_history GROUP BY 1 ORDER BY 1`);
      const buildings = (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM buildings`)).rows[0]?.n ?? 0;
      recordResult('two-instances-jobs', {
        ingestJobs: ingest.length,
        ingestAttempts: ingest.map((r) => r.attempt),
        scoringJobs: scoring.length,
        bullmqAttemptsStarted: attemptsStarted,
        historyRowsPerAsOf: history.rows,
        seconds: (Date.now() - started) / 1000,
      });
      expect(ingest.every((r) => r.status === 'succeeded')).toBe(true);
      expect(ingest.every((r) => r.attempt === 1)).toBe(true);
      for (const run of ingestRuns) expect(Number(ingest.find((r) => r.id === run.runId)?.read)).toBe(run.rows);
      expect(scoring.every((r) => r.status === 'succeeded')).toBe(true);
      expect(ingestJobs).toHaveLength(ingestRuns.length);
      expect(attemptsStarted.every((n) => n === 1)).toBe(true);
      for (const asOf of SCORING_DATES) expect(history.rows.find((r) => r.as_of === asOf)?.n).toBe(buildings);
    } finally {
      await queue.close();
      await ingestQueue.close();
      connection.disconnect();
    }
  }, TEST_TIMEOUT_MS);
});
