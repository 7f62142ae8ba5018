import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { getSource } from '@bhis/sources';
import { createTestDatabase, TestDatabase } from '@bhis/testing';
import { IngestInput } from '@bhis/queue';
import { IngestService, PermanentIngestError } from './ingest-service';
import { SocrataClient } from './socrata';
import { LOCAL_DOWNLOADS } from './testing/fake-open-data';
import { seedUniverseFor, SHARED_FIXTURES } from './testing/fixtures';
import { createRun, getRun, syncSourceCatalog } from '@bhis/runs';

/** A file said to be the whole data set closes what vanished from it, as a download does; any other file closes nothing. */
describe('loading a complete export from a file', () => {
  let db: TestDatabase;
  let pool: Pool;
  let service: IngestService;
  const tmp = mkdtempSync(path.join(tmpdir(), 'bhis-complete-'));
  const litigations = path.join(SHARED_FIXTURES, 'hpd_litigations.csv');
  // the same export a day later without its last two records
  const [header, ...rows] = readFileSync(litigations, 'utf8').trimEnd().split('\n');
  const shorter = path.join(tmp, 'hpd_litigations_shorter.csv');
  writeFileSync(shorter, [header, ...rows.slice(0, -2), ''].join('\n'));

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 4 });
    await syncSourceCatalog(pool);
    await seedUniverseFor(pool, getSource('hpd_litigations'), litigations);
    // the fixture has 10 records, fewer than the city's minimum: the guard is tested on its own below
    service = new IngestService(pool, new SocrataClient({ baseUrl: 'http://127.0.0.1:9', policy: LOCAL_DOWNLOADS }), { enforceMinimumRows: false });
  });

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
    rmSync(tmp, { recursive: true, force: true });
  });

  const ingest = async (source: string, input: IngestInput, on = service) => {
    const runId = await createRun(pool, { source, trigger: 'test', input: 'file' });
    return on.run({ runId, source, input, observedOn: '2026-11-24', lastAttempt: true });
  };
  const vanished = async () =>
    (
      await pool.query<{ id: string; status: string; scoring_excluded: boolean }>(
        `SELECT source_record_id AS id, status, scoring_excluded FROM events WHERE source = 'hpd_litigations' AND attributes ? 'vanished_on' ORDER BY 1`,
      )
    ).rows;

  it('a partial file (no --complete) closes nothing, even when records are missing from it', async () => {
    await ingest('hpd_litigations', { kind: 'file', path: litigations, complete: true });
    const stored = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE source = 'hpd_litigations'`);
    expect(stored.rows[0].n).toBeGreaterThan(2);
    const result = await ingest('hpd_litigations', { kind: 'file', path: shorter });
    expect(result.status === 'succeeded' && result.counts.vanished).toBe(0);
    expect(await vanished()).toEqual([]);
  });

  it('a complete file closes the records missing from it, and only those', async () => {
    const result = await ingest('hpd_litigations', { kind: 'file', path: shorter, complete: true });
    expect(result.status === 'succeeded' && result.counts.vanished).toBe(2);
    const gone = await vanished();
    expect(gone).toHaveLength(2);
    expect(gone.every((e) => e.scoring_excluded && e.status !== 'open')).toBe(true);
    // a record that comes back in a later complete file counts again
    await ingest('hpd_litigations', { kind: 'file', path: litigations, complete: true });
    expect(await vanished()).toEqual([]);
  });

  it('a complete file smaller than the source ever is (a truncated export) fails and keeps the data', async () => {
    const guarded = new IngestService(pool, new SocrataClient({ baseUrl: 'http://127.0.0.1:9', policy: LOCAL_DOWNLOADS }));
    const before = await pool.query(`SELECT count(*)::int AS n FROM events WHERE source = 'hpd_litigations' AND NOT scoring_excluded`);
    await expect(ingest('hpd_litigations', { kind: 'file', path: shorter, complete: true }, guarded)).rejects.toThrow(/fewer than the 200000 expected/);
    const after = await pool.query(`SELECT count(*)::int AS n FROM events WHERE source = 'hpd_litigations' AND NOT scoring_excluded`);
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it('refuses to load one part of a source published in several as complete', async () => {
    const omo = path.join(SHARED_FIXTURES, 'hpd_omo_charges.csv');
    const runId = await createRun(pool, { source: 'hpd_emergency_repairs', trigger: 'test', input: omo });
    await expect(
      service.run({ runId, source: 'hpd_emergency_repairs', input: { kind: 'file', path: omo, complete: true }, observedOn: '2026-11-24', lastAttempt: false }),
    ).rejects.toBeInstanceOf(PermanentIngestError);
    expect(await getRun(pool, runId)).toMatchObject({ status: 'failed', error: expect.stringMatching(/published in 2 parts \(omo, hwo\)/) });
  });
});
