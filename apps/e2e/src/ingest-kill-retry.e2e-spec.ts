import { createReadStream, mkdtempSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { Pool } from 'pg';
import { loadSource } from '@bhis/ingestion';
import { QUEUES } from '@bhis/queue';
import { getSource } from '@bhis/sources';
import { createTestDatabase, NodeProcess, poll, TestDatabase, testRedisPrefix } from '@bhis/testing';
import { writeViolationsFile } from './support/big-file';
import { seedUniverse } from './support/universe';
import { createRun, enqueueIngest, getRun } from '@bhis/runs';

const BBLS = Array.from({ length: 400 }, (_, i) => `3${String(1000 + i).padStart(5, '0')}0001`);
const ROWS = 150_000;

/** Everything a load leaves in events and the quarantine, as one comparable fingerprint. */
async function fingerprint(pool: Pool): Promise<{ events: number; digest: string; rejected: number }> {
  const { rows } = await pool.query(
    `SELECT count(*)::int AS events,
            md5(string_agg(bbl || source_record_id || event_type || severity || coalesce(status::text, '') || coalesce(occurred_on::text, '') || coalesce(description, '') || attributes::text || coalesce(encode(record, 'hex'), '') || coalesce(duplicate_of_hpd_complaint, ''),
                           ',' ORDER BY bbl, source_record_id, event_type)) AS digest
       FROM events`,
  );
  const rejected = await pool.query(`SELECT count(*)::int AS n FROM rejected_rows`);
  return { events: rows[0].events, digest: rows[0].digest, rejected: rejected.rows[0].n };
}

const workers: NodeProcess[] = [];
let file: string;

/**
 * Queues the big file on a worker, kills it (kill -9) once a third of the file is read (or once it
 * merges), checks that readers still see what was there before (`before` events), and lets a second
 * worker finish the run.
 */
async function killHalfWayAndRetry(url: string, pool: Pool, before: number, when: 'reading' | 'merging' = 'reading'): Promise<void> {
  // the file is staged on two threads, as a file loaded alone is (staging-thread.ts)
  const env = { DATABASE_URL: url, REDIS_PREFIX: testRedisPrefix(), WORKER_LOCK_MS: '4000', LOG_LEVEL: 'warn', INGEST_SPLIT_MIN_BYTES: '1' };
  const first = NodeProcess.app('ingest', { ...env, LOG_LEVEL: 'info' });
  workers.push(first);
  await first.waitFor('ingest worker started');

  const connection = new IORedis({ maxRetriesPerRequest: null });
  const queue = new Queue(QUEUES.ingest, { connection, prefix: env.REDIS_PREFIX });
  try {
    const queued = await enqueueIngest(queue, pool, { source: 'hpd_violations', input: { kind: 'file', path: file }, trigger: 'test', observedOn: '2026-11-21' });
    // kill -9 once a third of the file has been read, or in the merge transaction
    await poll(when === 'reading' ? 'a third of the file read' : 'the merge', async () => {
      const run = await getRun(pool, queued.runId);
      if (when === 'merging') return run?.progress.phase === 'merging' ? run : null;
      return (run?.progress.rows ?? 0) > ROWS / 3 ? run : null;
    }, 60_000, 50);
    await first.kill9();

    // while nobody works on it, readers still see the previous data
    expect((await fingerprint(pool)).events).toBe(before);

    const second = NodeProcess.app('ingest', env);
    workers.push(second);
    const run = await poll('the run to succeed', async () => {
      const r = await getRun(pool, queued.runId);
      if (r?.status === 'failed') throw new Error(`run failed: ${r.error}`);
      return r?.status === 'succeeded' ? r : null;
    }, 120_000);
    expect(run.attempt).toBeGreaterThanOrEqual(2);
    expect(run.counts.read).toBe(ROWS);
    const leftovers = await pool.query(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE 'ingest_stg_%'`);
    expect(leftovers.rows[0].n).toBe(0);
  } finally {
    await queue.close();
    connection.disconnect();
  }
}

describe('an ingest worker killed half-way through a file', () => {
  let dir: string;
  let clean: TestDatabase;
  let db: TestDatabase;
  let first: TestDatabase;
  let cleanPool: Pool;
  let pool: Pool;
  let firstPool: Pool;
  let reference: Awaited<ReturnType<typeof fingerprint>>;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'bhis-e2e-'));
    file = path.join(dir, 'hpd_violations.csv');
    await writeViolationsFile(file, BBLS, ROWS);
    [clean, db, first] = await Promise.all([createTestDatabase(), createTestDatabase(), createTestDatabase()]);
    cleanPool = new Pool({ connectionString: clean.url, max: 4 });
    pool = new Pool({ connectionString: db.url, max: 4 });
    firstPool = new Pool({ connectionString: first.url, max: 4 });
    await Promise.all([seedUniverse(cleanPool, BBLS), seedUniverse(pool, BBLS), seedUniverse(firstPool, BBLS)]);
    // the reference: the same file loaded once, without interruption
    const refRun = await createRun(cleanPool, { source: 'hpd_violations', trigger: 'test', input: file });
    const info = await stat(file);
    await loadSource(cleanPool, getSource('hpd_violations'), { kind: 'csv', stream: createReadStream(file), totalBytes: info.size }, { runId: refRun, observedOn: '2026-11-21' });
    reference = await fingerprint(cleanPool);
  }, 180_000);

  afterAll(async () => {
    for (const w of workers) await w.kill9();
    await cleanPool?.end();
    await pool?.end();
    await firstPool?.end();
    await Promise.all([clean?.drop(), db?.drop(), first?.drop()]);
  }, 60_000);

  it('is retried by another worker and ends with exactly the data of a clean run; the previous data stays readable', async () => {
    const source = getSource('hpd_violations');
    expect(reference.events).toBe(ROWS);

    // previous good data: a smaller earlier load
    const earlier = path.join(dir, 'earlier', 'hpd_violations.csv');
    await import('node:fs').then((fs) => fs.mkdirSync(path.dirname(earlier)));
    await writeViolationsFile(earlier, BBLS, 5_000);
    const earlierRun = await createRun(pool, { source: 'hpd_violations', trigger: 'test', input: earlier });
    await loadSource(pool, source, { kind: 'csv', stream: createReadStream(earlier), totalBytes: null }, { runId: earlierRun, observedOn: '2026-11-21' });
    expect((await fingerprint(pool)).events).toBe(5_000);

    await killHalfWayAndRetry(db.url, pool, 5_000);
    expect(await fingerprint(pool)).toEqual(reference);
  }, 300_000);

  it('while merging a first load (written without comparing): the retry ends identical to a clean run, nothing half-loaded in between', async () => {
    const never = await firstPool.query(`SELECT last_run_id FROM sources WHERE key = 'hpd_violations'`);
    expect(never.rows[0].last_run_id).toBeNull();

    await killHalfWayAndRetry(first.url, firstPool, 0, 'merging');
    expect(await fingerprint(firstPool)).toEqual(reference);
  }, 300_000);
});
