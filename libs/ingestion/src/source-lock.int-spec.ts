import { Pool } from 'pg';
import { getSource } from '@bhis/sources';
import { createTestDatabase, TestDatabase } from '@bhis/testing';
import { IngestService } from './ingest-service';
import { SocrataClient } from './socrata';
import { lockSource, SourceBusyError, sourceLoadUnderWay } from './source-lock';
import { LOCAL_DOWNLOADS } from './testing/fake-open-data';
import { fixtureFiles, seedUniverseFor } from './testing/fixtures';
import { createRun, getRun, syncSourceCatalog } from '@bhis/runs';

describe('one load per source at a time, and a finished run never loaded again', () => {
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

  const request = (runId: string, waitForSource = true) => ({
    runId, source: source.key, input: { kind: 'file' as const, path: file }, observedOn: '2026-11-01', lastAttempt: false, waitForSource,
  });

  it('refuses (or waits for) a second load of a source while one holds its lock, from any connection', async () => {
    const held = await lockSource(pool, source.key, { wait: false });
    const runId = await createRun(pool, { source: source.key, trigger: 'test', input: file });
    await expect(service.run(request(runId, false))).rejects.toBeInstanceOf(SourceBusyError);
    expect((await getRun(pool, runId))?.status).toBe('queued');
    // another source is not held up
    const other = await lockSource(pool, 'hpd_vacate_orders', { wait: false });
    await other.release();

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

  it('lets only one of two concurrent runs of the same source load at a time', async () => {
    const runs = [await createRun(pool, { source: source.key, trigger: 'test', input: file }), await createRun(pool, { source: source.key, trigger: 'test', input: file })];
    const outcomes = await Promise.allSettled(runs.map((runId) => service.run(request(runId, false))));
    const busy = outcomes.filter((o) => o.status === 'rejected' && o.reason instanceof SourceBusyError);
    const loaded = outcomes.filter((o) => o.status === 'fulfilled');
    expect(busy).toHaveLength(1);
    expect(loaded).toHaveLength(1);
  });

  it('merges 311 requests only after a load of HPD complaints under way, staging them meanwhile', async () => {
    const requests = fixtureFiles().find((f) => f.source.key === 'nyc311') ?? (() => { throw new Error('no nyc311 fixture'); })();
    await seedUniverseFor(pool, requests.source, requests.file);
    const complaints = await lockSource(pool, 'hpd_complaints', { wait: false });
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
});
