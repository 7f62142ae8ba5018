import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { Pool } from 'pg';
import { getSource } from '@bhis/sources';
import { createTestDatabase, TestDatabase } from '@bhis/testing';
import { IngestService } from './ingest-service';
import { SocrataClient } from './socrata';
import { lockRun, RunBusyError, sourceLoadUnderWay } from './run-lock';
import { LOCAL_DOWNLOADS } from './testing/fake-open-data';
import { fixtureFiles, seedUniverseFor } from './testing/fixtures';
import { createRun, getRun, syncSourceCatalog } from '@bhis/runs';

/** The merge lock of load-source.ts ('bhis' in ASCII): held here, every load stops before its merge. */
const MERGE_LOCK = 0x62686973;

describe('a run executed once at a time, runs of one source staged at once and merged in turn, a finished run never loaded again', () => {
  let db: TestDatabase;
  let pool: Pool;
  let service: IngestService;
  const { file, source } = fixtureFiles().find((f) => f.source.key === 'hpd_litigations') ?? (() => { throw new Error('no hpd_litigations fixture'); })();

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 8 });
    await syncSourceCatalog(pool);
    await seedUniverseFor(pool, getSource(source.key), file);
    service = new IngestService(pool, new SocrataClient({ baseUrl: 'http://127.0.0.1:1', policy: LOCAL_DOWNLOADS }));
  });

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  const request = (runId: string, waitForRun = true) => ({
    runId, source: source.key, input: { kind: 'file' as const, path: file }, observedOn: '2026-11-01', lastAttempt: false, waitForRun,
  });

  it('refuses (or waits for) a second execution of a run while one holds its lock, from any connection', async () => {
    const runId = await createRun(pool, { source: source.key, trigger: 'test', input: file });
    const held = await lockRun(pool, runId, source.key, { wait: false });
    await expect(service.run(request(runId, false))).rejects.toBeInstanceOf(RunBusyError);
    expect((await getRun(pool, runId))?.status).toBe('queued');
    // another run of the same source is not held up
    const other = await createRun(pool, { source: source.key, trigger: 'test', input: file });
    expect((await service.run(request(other, false))).status).toBe('succeeded');

    let finished = false;
    const waiting = service.run(request(runId)).then((result) => {
      finished = true;
      return result;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(finished).toBe(false);
    expect((await getRun(pool, runId))?.status).toBe('queued');
    await held.release();
    expect((await waiting).status).toBe('succeeded');
    expect((await getRun(pool, runId))?.attempt).toBe(1);
  });

  it('records a file run as succeeded in the load transaction, and a retry of it returns the outcome without loading', async () => {
    const runId = await createRun(pool, { source: source.key, trigger: 'test', input: file });
    const first = await service.run(request(runId));
    expect(first.status).toBe('succeeded');
    const before = await getRun(pool, runId);
    const lastRun = await pool.query<{ last_run_id: string }>(`SELECT last_run_id FROM sources WHERE key = $1`, [source.key]);
    expect(lastRun.rows[0]?.last_run_id).toBe(runId);

    const retried = await service.run(request(runId));
    expect(retried).toEqual({ status: 'succeeded', counts: before?.counts });
    const after = await getRun(pool, runId);
    expect(after?.attempt).toBe(before?.attempt);
    expect(after?.started_at).toEqual(before?.started_at);
    expect(after?.finished_at).toEqual(before?.finished_at);
  });

  it('lets only one of two concurrent executions of the same run load', async () => {
    const runId = await createRun(pool, { source: source.key, trigger: 'test', input: file });
    const outcomes = await Promise.allSettled([service.run(request(runId, false)), service.run(request(runId, false))]);
    const busy = outcomes.filter((o) => o.status === 'rejected' && o.reason instanceof RunBusyError);
    const loaded = outcomes.filter((o) => o.status === 'fulfilled');
    expect(busy).toHaveLength(1);
    expect(loaded).toHaveLength(1);
  });

  it('stages two runs of one source at once, then merges them in turn, the second compared with the first', async () => {
    const violations = fixtureFiles().find((f) => f.source.key === 'dob_violations') ?? (() => { throw new Error('no dob_violations fixture'); })();
    await seedUniverseFor(pool, violations.source, violations.file);
    const load = (runId: string) => service.run({ ...request(runId, false), source: violations.source.key, input: { kind: 'file' as const, path: violations.file } });
    const runs = await Promise.all([1, 2].map(() => createRun(pool, { source: violations.source.key, trigger: 'test', input: violations.file })));
    const merges = await pool.connect();
    await merges.query(`SELECT pg_advisory_lock(${MERGE_LOCK})`);
    let loading: Promise<unknown>[] = [];
    try {
      loading = runs.map(load);
      // both read and staged their file, and both wait for their turn to merge
      const merging = async () =>
        Number((await pool.query<{ n: string }>(`SELECT count(*) AS n FROM ingest_runs WHERE id = ANY($1) AND progress ->> 'phase' = 'merging'`, [runs])).rows[0].n);
      for (let i = 0; i < 200 && (await merging()) < 2; i++) await new Promise((r) => setTimeout(r, 50));
      expect(await merging()).toBe(2);
    } finally {
      await merges.query(`SELECT pg_advisory_unlock(${MERGE_LOCK})`);
      merges.release();
    }
    await Promise.all(loading);
    const stored = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM events WHERE source = $1`, [violations.source.key]);
    const records = Number(stored.rows[0].n);
    expect(records).toBeGreaterThan(0);
    // the first merge wrote every record, the second found them all stored and unchanged
    const counts = await Promise.all(runs.map(async (runId) => (await getRun(pool, runId))?.counts?.events));
    expect(counts.map((events) => [events?.inserted, events?.unchanged]).sort()).toEqual([[0, records], [records, 0]]);
  });

  it('merges 311 requests only after a load of HPD complaints under way, staging them meanwhile', async () => {
    const requests = fixtureFiles().find((f) => f.source.key === 'nyc311') ?? (() => { throw new Error('no nyc311 fixture'); })();
    await seedUniverseFor(pool, requests.source, requests.file);
    const complaintsRun = await createRun(pool, { source: 'hpd_complaints', trigger: 'test', input: 'complaints.csv' });
    const complaints = await lockRun(pool, complaintsRun, 'hpd_complaints', { wait: false });
    expect(await sourceLoadUnderWay(pool, 'hpd_complaints')).toBe(true);
    expect(await sourceLoadUnderWay(pool, 'hpd_violations')).toBe(false);
    const runId = await createRun(pool, { source: 'nyc311', trigger: 'test', input: requests.file });
    let finished = false;
    const loading = service.run({ ...request(runId), source: 'nyc311', input: { kind: 'file' as const, path: requests.file } }).then((result) => {
      finished = true;
      return result;
    });
    try {
      // staged, then waiting for its turn to merge
      for (let i = 0; i < 100 && (await getRun(pool, runId))?.status !== 'running'; i++) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 2500));
      expect(finished).toBe(false);
      expect((await getRun(pool, runId))?.status).toBe('running');
    } finally {
      await complaints.release();
    }
    expect(await sourceLoadUnderWay(pool, 'hpd_complaints')).toBe(false);
    expect((await loading).status).toBe('succeeded');
  });
  it('compares a refresh with its own stored events while another merge has the turn; a 311 merge reads them only in its turn', async () => {
    const [violations, requests] = ['dob_violations', 'nyc311'].map((key) => fixtureFiles().find((f) => f.source.key === key) ?? (() => { throw new Error(`no ${key} fixture`); })());
    const load = async ({ file, source: { key } }: typeof violations) => {
      await seedUniverseFor(pool, getSource(key), file);
      const runId = await createRun(pool, { source: key, trigger: 'test', input: file });
      return service.run({ ...request(runId), source: key, input: { kind: 'file' as const, path: file } });
    };
    // the merge waiting for its turn, and what its transaction holds: locks on the stored events it
    // read, and on relations it created (the comparison's temp table, not visible to other sessions)
    const waiting = async () =>
      (await pool.query<{ pid: number }>(`SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND objid = $1 AND objsubid = 1`, [MERGE_LOCK])).rows;
    const held = async (pid: number) =>
      (await pool.query<{ events: number; created: number }>(
        `SELECT count(*) FILTER (WHERE l.relation = 'events'::regclass)::int AS events,
                count(*) FILTER (WHERE l.mode = 'AccessExclusiveLock' AND c.oid IS NULL)::int AS created
           FROM pg_locks l LEFT JOIN pg_class c ON c.oid = l.relation
          WHERE l.pid = $1 AND l.locktype = 'relation'`,
        [pid],
      )).rows[0];
    for (const loaded of [violations, requests]) expect((await load(loaded)).status).toBe('succeeded');
    // the refresh brings changed records (a line the source has stored unchanged is skipped unread, with nothing to compare)
    const rows = parse(readFileSync(violations.file, 'utf8'), { columns: true }) as Record<string, string>[];
    const amended = { ...violations, file: path.join(mkdtempSync(path.join(tmpdir(), 'bhis-run-lock-')), 'dob_violations.csv') };
    writeFileSync(amended.file, stringify(rows.map((row) => ({ ...row, DESCRIPTION: `${row['DESCRIPTION'] ?? ''} AMENDED` })), { header: true }));

    for (const [loaded, beforeTurn] of [[amended, true], [requests, false]] as const) {
      const merges = await pool.connect();
      await merges.query(`SELECT pg_advisory_lock(${MERGE_LOCK})`);
      let loading: Promise<{ status: string }> | null = null;
      try {
        loading = load(loaded);
        for (let i = 0; i < 200 && (await waiting()).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
        const [merge] = await waiting();
        expect(merge).toBeDefined();
        const locks = await held(merge.pid);
        expect([locks.events > 0, locks.created > 0]).toEqual([beforeTurn, beforeTurn]);
      } finally {
        await merges.query(`SELECT pg_advisory_unlock(${MERGE_LOCK})`);
        merges.release();
      }
      expect((await loading).status).toBe('succeeded');
    }
  });
});
