import path from 'node:path';
import { Pool } from 'pg';
import { getSource } from '@bhis/sources';
import { createTestDatabase, TestDatabase } from '@bhis/testing';
import { STAGING_PREFIX } from './staging';
import { IngestInput } from '@bhis/queue';
import { IngestService, PermanentIngestError, RunCancelledError } from './ingest-service';
import { SocrataClient } from './socrata';
import { LOCAL_DOWNLOADS } from './testing/fake-open-data';
import { seedUniverseFor, SHARED_FIXTURES } from './testing/fixtures';
import { createRun, getRun, requestCancel, syncSourceCatalog } from '@bhis/runs';

/** An operator cancels a run: before it starts, or while it stages (it stops before its merge); a wrong file names the source it is. */
describe('cancelling a run, and a wrong file', () => {
  let db: TestDatabase;
  let pool: Pool;
  let service: IngestService;
  const litigations = path.join(SHARED_FIXTURES, 'hpd_litigations.csv');

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 4 });
    await syncSourceCatalog(pool);
    await seedUniverseFor(pool, getSource('hpd_litigations'), litigations);
    service = new IngestService(pool, new SocrataClient({ baseUrl: 'http://127.0.0.1:9', policy: LOCAL_DOWNLOADS }), { enforceMinimumRows: false });
  });

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  const stored = async () => (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE source = 'hpd_litigations'`)).rows[0].n;
  const newRun = (source: string) => createRun(pool, { source, trigger: 'test', input: 'file' });
  const file = (p: string): IngestInput => ({ kind: 'file', path: p });

  it('a run cancelled while queued never starts, and ends as cancelled with its phase done', async () => {
    const runId = await newRun('hpd_litigations');
    const outcome = await requestCancel(pool, runId);
    expect(outcome.kind).toBe('cancelled');
    await expect(service.run({ runId, source: 'hpd_litigations', input: file(litigations), observedOn: '2026-11-24', lastAttempt: true })).rejects.toBeInstanceOf(RunCancelledError);
    const run = await getRun(pool, runId);
    expect(run).toEqual(expect.objectContaining({ status: 'cancelled', started_at: null, progress: { phase: 'done' } }));
    expect(await stored()).toBe(0);
  });

  it('a running run asked to stop stops before its merge: nothing of it is stored, its staging is gone', async () => {
    const runId = await newRun('hpd_litigations');
    // the request finds the run taken by a worker: it asks, and the run goes on to its checkpoint
    await pool.query(`UPDATE ingest_runs SET status = 'running', started_at = now() WHERE id = $1`, [runId]);
    expect((await requestCancel(pool, runId)).kind).toBe('cancelling');
    const phases: string[] = [];
    const run = service.run({ runId, source: 'hpd_litigations', input: file(litigations), observedOn: '2026-11-24', lastAttempt: true, onProgress: (p) => phases.push(p.phase) });
    await expect(run).rejects.toBeInstanceOf(RunCancelledError);
    // it read the file and stopped before merging it
    expect(phases).toContain('parsing');
    expect(phases).not.toContain('merging');
    expect(await getRun(pool, runId)).toEqual(expect.objectContaining({ status: 'cancelled', error: expect.stringContaining('keeps the data it had'), progress: expect.objectContaining({ phase: 'done' }) }));
    expect(await stored()).toBe(0);
    const staging = await pool.query(`SELECT relname FROM pg_class WHERE relname LIKE $1 AND relkind = 'r'`, [`${STAGING_PREFIX}%`]);
    expect(staging.rows).toEqual([]);
    // an ended run cannot be cancelled again
    expect((await requestCancel(pool, runId)).kind).toBe('finished');
  });

  it('a run that succeeded ends with its phase done', async () => {
    const runId = await newRun('hpd_litigations');
    await service.run({ runId, source: 'hpd_litigations', input: file(litigations), observedOn: '2026-11-24', lastAttempt: true });
    expect(await getRun(pool, runId)).toEqual(expect.objectContaining({ status: 'succeeded', progress: expect.objectContaining({ phase: 'done' }) }));
    expect(await stored()).toBeGreaterThan(0);
  });

  it("a wrong source's file fails naming its columns and the source it matches", async () => {
    // the city's HPD violations export given as the litigations
    const runId = await newRun('hpd_litigations');
    await expect(
      service.run({ runId, source: 'hpd_litigations', input: file(path.join(SHARED_FIXTURES, 'hpd_violations.csv')), observedOn: '2026-11-24', lastAttempt: true }),
    ).rejects.toBeInstanceOf(PermanentIngestError);
    const run = await getRun(pool, runId);
    expect(run?.status).toBe('failed');
    expect(run?.error).toContain('load it with --source hpd_violations');
    expect(run?.error_detail).toEqual(
      expect.objectContaining({
        source: 'hpd_litigations',
        missing_columns: expect.arrayContaining(['LitigationID']),
        unexpected_columns: expect.arrayContaining(['ViolationID']),
        closest_source: expect.objectContaining({ source: 'hpd_violations' }),
      }),
    );
  });
});
