import { createReadStream, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { Pool } from 'pg';
import { loadSource } from '@bhis/ingestion';
import { QUEUES } from '@bhis/queue';
import { createRun, enqueueIngest, getRun } from '@bhis/runs';
import { getSource } from '@bhis/sources';
import { createTestDatabase, NodeProcess, poll, TestDatabase, testRedisPrefix } from '@bhis/testing';
import { SHARED_FIXTURES } from './support/big-file';
import { seedUniverse } from './support/universe';

const BBLS = Array.from({ length: 300 }, (_, i) => `3${String(2000 + i).padStart(5, '0')}0001`);
/** BBLs the file names that are not in the universe: their rows are out of scope. */
const OUTSIDE = ['3099990001', '3099990002'];
const COMPLAINTS = 9_000;
const TYPES = ['NON EMERGENCY', 'IMMEDIATE EMERGENCY', 'EMERGENCY'];

/**
 * HPD complaints in the published layout, one row per problem (1 to 4 per complaint, next to each
 * other as the city publishes them), cloned from the real fixture rows; every 997th row has a column
 * too few (quarantined) and the complaints of two BBLs are outside the universe.
 */
function writeComplaintsFile(file: string, statusShift = 0): number {
  const [header, ...real] = parse(readFileSync(path.join(SHARED_FIXTURES, 'hpd_complaints_and_problems.csv')), { bom: true }) as string[][];
  const col = (name: string) => header.indexOf(name);
  const rows: string[][] = [];
  let problemId = 400_000_000;
  for (let c = 0; c < COMPLAINTS; c++) {
    const bbl = c % 50 === 0 ? OUTSIDE[c % 2] : BBLS[c % BBLS.length];
    for (let p = 0; p <= c % 4; p++) {
      const row = [...real[(c + p) % real.length]];
      row[col('Complaint ID')] = String(300_000_000 + c);
      row[col('Problem ID')] = String(problemId++);
      row[col('BBL')] = bbl;
      row[col('Borough')] = 'BROOKLYN';
      row[col('Block')] = String(Number(bbl.slice(1, 6)));
      row[col('Lot')] = String(Number(bbl.slice(6)));
      row[col('Type')] = TYPES[(c + p) % 3];
      row[col('Received Date')] = `0${1 + ((c + 2 * p) % 9)}/1${p}/2024`;
      row[col('Complaint Status')] = (c + p + statusShift) % 2 ? 'CLOSE' : 'OPEN';
      row[col('Unique Key')] = String(200_000_000 + ((c * 4 + p) % 20_000));
      rows.push(rows.length % 997 === 996 ? row.slice(1) : row);
    }
  }
  writeFileSync(file, stringify([header, ...rows]));
  return rows.length;
}

/** Everything a load leaves behind: events, 311 links and quarantined rows. */
async function stored(pool: Pool) {
  const events = await pool.query(
    `SELECT bbl, source_record_id, event_type, category, severity, status, occurred_on::text, closed_on::text, description,
            attributes::text AS attributes, encode(record, 'hex') AS record, scoring_excluded
       FROM events ORDER BY bbl, source_record_id, event_type`,
  );
  const links = await pool.query(`SELECT unique_key, hpd_complaint_id, bbl FROM complaint_311_links ORDER BY unique_key`);
  const rejected = await pool.query(`SELECT line_number, reason, raw FROM rejected_rows ORDER BY line_number, raw`);
  return { events: events.rows, links: links.rows, rejected: rejected.rows };
}

describe('a file staged on two threads, cut into many chunks', () => {
  let file: string;
  let rows: number;
  let single: TestDatabase;
  let split: TestDatabase;
  let singlePool: Pool;
  let splitPool: Pool;
  let worker: NodeProcess | null = null;
  /**
   * The worker's settings: it stages any file on two threads (a file alone), in chunks of 64 KB, each
   * thread's heap capped at 64 MB (the default is 256).
   */
  let workerEnv: Record<string, string>;

  /**
   * Waits for the split run's retry to succeed, then loads `input` in this process, in one piece,
   * into the reference database (which held what the split one did): both store the same.
   */
  async function expectRetryStoresWhatOneReaderStores(splitRunId: string, input: string, observedOn: string): Promise<void> {
    const run = await poll('the retry to succeed', async () => {
      const r = await getRun(splitPool, splitRunId);
      if (r?.status === 'failed') throw new Error(`run failed: ${r.error}`);
      return r?.status === 'succeeded' ? r : null;
    }, 120_000);
    expect(run.attempt).toBeGreaterThanOrEqual(2);
    const source = getSource('hpd_complaints');
    const runId = await createRun(singlePool, { source: source.key, trigger: 'test', input });
    const reference = await loadSource(singlePool, source, { kind: 'csv', stream: createReadStream(input), totalBytes: statSync(input).size }, { runId, observedOn });
    expect(reference.events.updated).toBeGreaterThan(4_000);
    const { bytes: _a, ...splitCounts } = run.counts;
    const { bytes: _b, ...singleCounts } = reference;
    expect(splitCounts).toEqual(singleCounts);
    expect(await stored(splitPool)).toEqual(await stored(singlePool));
  }

  beforeAll(async () => {
    file = path.join(mkdtempSync(path.join(tmpdir(), 'bhis-split-')), 'hpd_complaints_and_problems.csv');
    rows = writeComplaintsFile(file);
    [single, split] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    singlePool = new Pool({ connectionString: single.url, max: 4 });
    splitPool = new Pool({ connectionString: split.url, max: 4 });
    await Promise.all([seedUniverse(singlePool, BBLS), seedUniverse(splitPool, BBLS)]);
  }, 120_000);

  afterAll(async () => {
    await worker?.kill9();
    await singlePool?.end();
    await splitPool?.end();
    await Promise.all([single?.drop(), split?.drop()]);
  }, 60_000);

  it('stores what a single reader of the file stores: the same events, links, quarantined lines and counts', async () => {
    const source = getSource('hpd_complaints');
    // the reference: the file read in this process, in one piece
    const runId = await createRun(singlePool, { source: source.key, trigger: 'test', input: file });
    const reference = await loadSource(singlePool, source, { kind: 'csv', stream: createReadStream(file), totalBytes: statSync(file).size }, { runId, observedOn: '2026-11-21' });

    workerEnv = { DATABASE_URL: split.url, REDIS_PREFIX: testRedisPrefix(), LOG_LEVEL: 'info', INGEST_SPLIT_MIN_BYTES: '1', INGEST_SPLIT_CHUNK_BYTES: String(64 << 10), INGEST_THREAD_HEAP_MB: '64' };
    worker = NodeProcess.app('ingest', workerEnv);
    await worker.waitFor('ingest worker started');
    const connection = new IORedis({ maxRetriesPerRequest: null });
    const queue = new Queue(QUEUES.ingest, { connection, prefix: workerEnv.REDIS_PREFIX });
    try {
      const queued = await enqueueIngest(queue, splitPool, { source: source.key, input: { kind: 'file', path: file }, trigger: 'test', observedOn: '2026-11-21' });
      const run = await poll('the run to succeed', async () => {
        const r = await getRun(splitPool, queued.runId);
        if (r?.status === 'failed') throw new Error(`run failed: ${r.error}`);
        return r?.status === 'succeeded' ? r : null;
      }, 120_000);

      expect(statSync(file).size).toBeGreaterThan(40 * (64 << 10));
      expect(reference.read).toBe(rows);
      expect(reference.quarantined).toBeGreaterThan(10);
      expect(reference.out_of_scope).toBeGreaterThan(0);
      expect(reference.events.collapsed_duplicates).toBeGreaterThan(0);
      const { bytes: _a, ...splitCounts } = run.counts;
      const { bytes: _b, ...singleCounts } = reference;
      expect(splitCounts).toEqual(singleCounts);
      const [mine, theirs] = await Promise.all([stored(splitPool), stored(singlePool)]);
      expect(mine.events.length).toBeGreaterThan(8_000);
      expect(mine).toEqual(theirs);
      const leftovers = await splitPool.query(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE 'ingest_stg_%'`);
      expect(leftovers.rows[0].n).toBe(0);
    } finally {
      await queue.close();
      connection.disconnect();
    }
  }, 300_000);
  it('fails the run when one of its staging threads fails, stops the other, keeps the previous data, and loads on the retry', async () => {
    // the file again with every status changed; the split run of the test before is the previous data
    const changed = path.join(path.dirname(file), 'changed', 'hpd_complaints_and_problems.csv');
    mkdirSync(path.dirname(changed), { recursive: true });
    writeComplaintsFile(changed, 1);
    const before = await stored(splitPool);
    expect(before.events.length).toBeGreaterThan(8_000);

    // Postgres' answer to a full disk, raised by one row near the end of the file: only the thread
    // whose chunk holds it fails (a trigger put on the events staging table as the run creates it)
    const failing = String(300_000_000 + COMPLAINTS - 300);
    await splitPool.query(`CREATE FUNCTION test_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'could not extend file "base/16384/16412.1": No space left on device' USING ERRCODE = 'disk_full'; END $$`);
    await splitPool.query(`CREATE FUNCTION test_fail_staging() RETURNS event_trigger LANGUAGE plpgsql AS $$
      DECLARE created record;
      BEGIN
        FOR created IN SELECT objid::regclass::text AS name FROM pg_event_trigger_ddl_commands() WHERE command_tag = 'CREATE TABLE' LOOP
          IF created.name LIKE 'ingest_stg_events_%' THEN
            EXECUTE format('CREATE TRIGGER test_disk_full BEFORE INSERT ON %s FOR EACH ROW WHEN (NEW.source_record_id = %L) EXECUTE FUNCTION test_disk_full()', created.name, '${failing}');
          END IF;
        END LOOP;
      END $$`);
    await splitPool.query(`CREATE EVENT TRIGGER test_fail_staging ON ddl_command_end WHEN TAG IN ('CREATE TABLE') EXECUTE FUNCTION test_fail_staging()`);
    const dropTriggers = () => splitPool.query(`DROP EVENT TRIGGER IF EXISTS test_fail_staging; DROP FUNCTION IF EXISTS test_fail_staging(); DROP FUNCTION IF EXISTS test_disk_full() CASCADE`);

    const connection = new IORedis({ maxRetriesPerRequest: null });
    const queue = new Queue(QUEUES.ingest, { connection, prefix: workerEnv.REDIS_PREFIX });
    try {
      const source = getSource('hpd_complaints');
      const queued = await enqueueIngest(queue, splitPool, { source: source.key, input: { kind: 'file', path: changed }, trigger: 'test', observedOn: '2026-11-22' });
      const failed = await poll('the first attempt to fail', async () => {
        const r = await getRun(splitPool, queued.runId);
        return r?.error ? r : null;
      }, 120_000, 50);
      await dropTriggers();
      expect(failed.error).toMatch(/^Postgres ran out of disk space during the load \(SQLSTATE 53100: could not extend file/);
      expect(failed.error).toMatch(/still serves its previous data/);
      // the other thread stopped with it: no staging table, no COPY left, nothing of the file stored
      const leftovers = await splitPool.query(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE 'ingest_stg_%'`);
      expect(leftovers.rows[0].n).toBe(0);
      const copies = await splitPool.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'COPY %' AND state = 'active'`);
      expect(copies.rows[0].n).toBe(0);
      expect(await stored(splitPool)).toEqual(before);

      // the retry, on the same worker, stores what a single reader of the changed file stores
      await expectRetryStoresWhatOneReaderStores(queued.runId, changed, '2026-11-22');
    } finally {
      await dropTriggers();
      await queue.close();
      connection.disconnect();
    }
  }, 300_000);

  it('caps each staging thread at INGEST_THREAD_HEAP_MB: a thread that outgrows it fails the run, which keeps the previous data and loads under the default cap', async () => {
    await worker?.kill9();
    // 400,000 BINs more in the BIN -> BBL map each staging thread holds (resolver.ts): well over a
    // 32 MB heap, well under the default 256 MB. No BIN of the file is among them.
    const bins = `INSERT INTO bin_bbl (bin, bbl, source) SELECT 9000000 + i, $1, 'test' FROM generate_series(1, 400000) i`;
    await Promise.all([splitPool.query(bins, [BBLS[0]]), singlePool.query(bins, [BBLS[0]])]);
    const before = await stored(splitPool);
    worker = NodeProcess.app('ingest', { ...workerEnv, INGEST_THREAD_HEAP_MB: '32' });
    await worker.waitFor('ingest worker started');

    const connection = new IORedis({ maxRetriesPerRequest: null });
    const queue = new Queue(QUEUES.ingest, { connection, prefix: workerEnv.REDIS_PREFIX });
    try {
      const source = getSource('hpd_complaints');
      // the first file again: every status changes back
      const queued = await enqueueIngest(queue, splitPool, { source: source.key, input: { kind: 'file', path: file }, trigger: 'test', observedOn: '2026-11-23' });
      const failed = await poll('the first attempt to fail', async () => {
        const r = await getRun(splitPool, queued.runId);
        return r?.error ? r : null;
      }, 120_000, 50);
      // the retry waits 5 s (libs/queue/src/connection.ts): once it is scheduled, a worker with the
      // default cap takes it
      await poll('the retry to be scheduled', async () => ((await (await queue.getJob(queued.jobId))?.isDelayed()) ? true : null), 30_000, 50);
      await worker.kill9();
      const { INGEST_THREAD_HEAP_MB: _capped, ...defaults } = workerEnv;
      worker = NodeProcess.app('ingest', defaults);
      expect(failed.error).toMatch(/^A staging thread ran out of its heap, bounded by INGEST_THREAD_HEAP_MB \(/);
      expect(failed.error).toMatch(/still serves its previous data/);
      const leftovers = await splitPool.query(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE 'ingest_stg_%'`);
      expect(leftovers.rows[0].n).toBe(0);
      expect(await stored(splitPool)).toEqual(before);

      await expectRetryStoresWhatOneReaderStores(queued.runId, file, '2026-11-23');
    } finally {
      await queue.close();
      connection.disconnect();
    }
  }, 300_000);
});
