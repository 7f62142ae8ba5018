import { Pool } from 'pg';
import { createKey, RunningApi, startApi } from './support/api';
import { scoresFingerprint } from './support/fingerprint';
import { send } from './support/http';
import { BackgroundProbe, poll } from '@bhis/testing';
import { NodeProcess } from '@bhis/testing';
import { TEST_TIMEOUT_MS } from './support/mode';
import { recordResult } from './support/results';
import { runCliJson } from '@bhis/testing';
import { CITY_AS_OF, cloneSeededCity, PREVIOUS_AS_OF, redisPrefix, SeededDatabase } from './support/seeded-city';

interface ScoringRunState {
  status: string;
  scored: number | null;
}

async function runState(pool: Pool, runId: string): Promise<ScoringRunState | null> {
  const { rows } = await pool.query<{ status: string; scored: string | null }>(`SELECT status, counts->'progress'->>'scored' AS scored FROM scoring_runs WHERE id = $1`, [runId]);
  const row = rows[0];
  return row ? { status: row.status, scored: row.scored === null ? null : Number(row.scored) } : null;
}

/** The `data` member of a lookup, as text: what a client sees of a building. */
function lookupData(body: string): string {
  return JSON.stringify((JSON.parse(body) as { data?: unknown }).data ?? null);
}

describe('a scoring worker killed with SIGKILL in the middle of a full run', () => {
  let faulty: SeededDatabase;
  let clean: SeededDatabase;
  let faultyPool: Pool;
  let cleanPool: Pool;
  let api: RunningApi | undefined;
  const workers: NodeProcess[] = [];

  beforeAll(async () => {
    [faulty, clean] = [await cloneSeededCity(), await cloneSeededCity()];
    faultyPool = new Pool({ connectionString: faulty.url, max: 2 });
    cleanPool = new Pool({ connectionString: clean.url, max: 2 });
  }, 600_000);

  afterAll(async () => {
    for (const w of workers) await w.kill9();
    await api?.process.stop();
    await faultyPool?.end();
    await cleanPool?.end();
    await Promise.all([faulty?.drop(), clean?.drop()]);
  }, 120_000);

  it('is retried by another worker, ends with exactly the scores of a clean run, and the API serves the previous scores until then', async () => {
    const started = Date.now();
    // the reference: the same run, uninterrupted
    const cleanEnv = { DATABASE_URL: clean.url, REDIS_PREFIX: redisPrefix(), LOG_LEVEL: 'info' };
    const cleanWorker = NodeProcess.app('scoring', cleanEnv);
    workers.push(cleanWorker);
    await cleanWorker.waitFor('scoring worker started');
    const reference = await runCliJson<{ status: string; seconds: number }>(['score', '--full', '--as-of', CITY_AS_OF, '--wait', '--json'], cleanEnv, [cleanWorker]);
    expect(reference.status).toBe('succeeded');
    await cleanWorker.stop();
    const expected = await scoresFingerprint(cleanPool);

    const env = { DATABASE_URL: faulty.url, REDIS_PREFIX: redisPrefix(), WORKER_LOCK_MS: '2000' };
    const before = await scoresFingerprint(faultyPool);
    expect(before.buildingScores).toBe(expected.buildingScores);
    const { key } = await createKey(faulty.url, { rateLimitPerMin: 100_000_000 });
    api = await startApi({ DATABASE_URL: faulty.url, REDIS_PREFIX: env.REDIS_PREFIX });
    const { rows } = await faultyPool.query<{ bbl: string }>(`SELECT bbl FROM building_scores ORDER BY md5(bbl) LIMIT 40`);
    const sample = rows.map((r) => r.bbl.trim());
    const previous = new Map<string, string>();
    for (const bbl of sample) {
      const res = await send(api.port, { method: 'GET', path: `/api/v1/buildings/${bbl}`, headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
      previous.set(bbl, lookupData(res.body));
    }

    const first = NodeProcess.app('scoring', { ...env, LOG_LEVEL: 'info' });
    workers.push(first);
    await first.waitFor('scoring worker started');
    const queued = await runCliJson<{ run_id: string }>(['score', '--full', '--as-of', CITY_AS_OF, '--json'], env);

    // readers, all along: a lookup answers 200, with the previous scores until the retried run commits
    let i = 0;
    const runningApi = api;
    const probe = new BackgroundProbe(async () => {
      const bbl = sample[i++ % sample.length] ?? '';
      const res = await send(runningApi.port, { method: 'GET', path: `/api/v1/buildings/${bbl}`, headers: { authorization: `Bearer ${key}` } });
      return { bbl, status: res.status, data: res.status === 200 ? lookupData(res.body) : '' };
    }, 10);

    const atKill = await poll('the run to be running', async () => {
      const state = await runState(faultyPool, queued.run_id);
      return state?.status === 'running' ? state : null;
    }, 60_000, 5);
    await first.kill9();
    const afterKill = await runState(faultyPool, queued.run_id);
    // the kill landed before the run committed (otherwise the test proves nothing)
    expect(afterKill?.status).toBe('running');
    expect(await scoresFingerprint(faultyPool)).toEqual(before);

    const second = NodeProcess.app('scoring', { ...env, LOG_LEVEL: 'info' });
    workers.push(second);
    const finished = await poll('the retried run to succeed', async () => {
      const state = await runState(faultyPool, queued.run_id);
      if (state?.status === 'failed') throw new Error('the retried run failed');
      return state?.status === 'succeeded' ? state : null;
    }, 180_000);
    const reads = await probe.stop();
    expect(finished.status).toBe('succeeded');

    const after = await scoresFingerprint(faultyPool);
    expect(after).toEqual(expected);
    // every read saw a building either as before the run or as after it: never missing, never half-written
    const final = new Map<string, string>();
    for (const bbl of sample) {
      const res = await send(runningApi.port, { method: 'GET', path: `/api/v1/buildings/${bbl}`, headers: { authorization: `Bearer ${key}` } });
      final.set(bbl, lookupData(res.body));
    }
    const failedReads = reads.filter((r) => r.status !== 200);
    const neitherBeforeNorAfter = reads.filter((r) => r.data !== previous.get(r.bbl) && r.data !== final.get(r.bbl));
    const sawPrevious = reads.filter((r) => r.data === previous.get(r.bbl) && r.data !== final.get(r.bbl)).length;
    expect(failedReads).toEqual([]);
    expect(neitherBeforeNorAfter).toEqual([]);
    expect(sawPrevious).toBeGreaterThan(0);
    recordResult('scoring-kill', {
      buildings: after.buildingScores,
      historyRows: after.history,
      killedAt: atKill,
      readsDuringRun: reads.length,
      readsNot200: failedReads.length,
      readsWithPreviousScores: sawPrevious,
      readsNeitherBeforeNorAfter: neitherBeforeNorAfter.length,
      fingerprintEqualsCleanRun: true,
      seconds: (Date.now() - started) / 1000,
      previousAsOf: PREVIOUS_AS_OF,
      newAsOf: CITY_AS_OF,
    });
  }, TEST_TIMEOUT_MS);
});
