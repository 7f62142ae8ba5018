import path from 'node:path';
import { Pool } from 'pg';
import { getSource } from '@bhis/sources';
import { createTestDatabase, TestDatabase } from '@bhis/testing';
import { IngestService, PermanentIngestError } from './ingest-service';
import { SocrataClient } from './socrata';
import { LOCAL_DOWNLOADS as LOCAL } from './testing/fake-open-data';
import { FakeDataset, FakeOpenData } from './testing/fake-open-data';
import { seedUniverseFor, SHARED_FIXTURES } from './testing/fixtures';
import { createRun, getRun, syncSourceCatalog } from '@bhis/runs';

const DATASET = getSource('hpd_litigations').parts[0].datasetId as string;
const FIXTURE = path.join(SHARED_FIXTURES, 'hpd_litigations.csv');

describe('downloading a source from (a local stand-in for) NYC Open Data', () => {
  let db: TestDatabase;
  let pool: Pool;
  const openData = new FakeOpenData();
  const litigations: FakeDataset = { rowsUpdatedAt: 1_700_000_000, csvFile: FIXTURE, columns: [], sodaRows: [] };
  openData.datasets.set(DATASET, litigations);
  let service: IngestService;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 4 });
    await syncSourceCatalog(pool);
    await seedUniverseFor(pool, getSource('hpd_litigations'), FIXTURE);
    await openData.start();
    // the fixture has 10 rows: the truncated-download guard is tested on its own below
    service = new IngestService(pool, new SocrataClient({ baseUrl: openData.url, appToken: 'token-123', retries: 2, pageSize: 2, policy: LOCAL }), {
      enforceMinimumRows: false,
    });
  });

  afterAll(async () => {
    await openData.stop();
    await pool?.end();
    await db?.drop();
  });

  const download = async () => {
    const runId = await createRun(pool, { source: 'hpd_litigations', trigger: 'test', input: 'download' });
    const result = await service.run({ runId, source: 'hpd_litigations', input: { kind: 'download' }, observedOn: '2026-11-21', lastAttempt: true });
    return { runId, result };
  };

  it('refuses a full export with fewer records than the source ever has (a truncated download)', async () => {
    const guarded = new IngestService(pool, new SocrataClient({ baseUrl: openData.url, retries: 0, policy: LOCAL }));
    const runId = await createRun(pool, { source: 'hpd_litigations', trigger: 'test', input: 'download' });
    await expect(guarded.run({ runId, source: 'hpd_litigations', input: { kind: 'download' }, observedOn: '2026-11-21', lastAttempt: false })).rejects.toThrow(/fewer than the \d+ expected/);
    expect((await getRun(pool, runId))?.status).toBe('failed');
    const stored = await pool.query(`SELECT count(*)::int AS n FROM events`);
    expect(stored.rows[0].n).toBe(0);
  });

  it('loads the whole CSV export the first time, retrying a 503, with the app token', async () => {
    openData.failNext = 1;
    const first = openData.requests.length;
    const { runId, result } = await download();
    expect(result.status).toBe('succeeded');
    const run = await getRun(pool, runId);
    expect(run?.counts.read).toBe(10);
    expect(run?.counts.loaded).toBeGreaterThan(0);
    expect(openData.requests.some((r) => r.url.startsWith(`/api/views/${DATASET}/rows.csv`))).toBe(true);
    expect(openData.requests.slice(first).every((r) => r.token === 'token-123')).toBe(true);
    const stored = await pool.query(`SELECT rows_updated_at FROM sources WHERE key = 'hpd_litigations'`);
    expect(Number(stored.rows[0].rows_updated_at)).toBe(litigations.rowsUpdatedAt);
  });

  it('skips the download when rowsUpdatedAt has not changed', async () => {
    const before = openData.requests.length;
    const { runId, result } = await download();
    expect(result).toEqual({ status: 'skipped', reason: expect.stringContaining('unchanged') });
    expect((await getRun(pool, runId))?.status).toBe('skipped');
    expect(openData.requests.slice(before).map((r) => r.url.split('?')[0])).toEqual([`/api/views/${DATASET}.json`]);
  });

  it('pulls only the rows updated since the last refresh, page by page, when the data set changed', async () => {
    litigations.rowsUpdatedAt += 3600;
    const existing = await pool.query(
      `SELECT source_record_id, bbl FROM events WHERE source = 'hpd_litigations' ORDER BY source_record_id LIMIT 3`,
    );
    const part = getSource('hpd_litigations').parts[0];
    const field = (column: string) => part.sodaFields[column];
    litigations.sodaRows = existing.rows.map((r, i) => ({
      [field('LitigationID')]: r.source_record_id,
      [field('BBL')]: r.bbl,
      [field('CaseType')]: 'Heat and Hot Water',
      [field('CaseOpenDate')]: '2026-11-0' + (i + 1) + 'T00:00:00.000',
      [field('CaseStatus')]: 'OPEN',
    }));
    const before = openData.requests.length;
    const { runId, result } = await download();
    expect(result.status).toBe('succeeded');
    const pages = openData.requests.slice(before).filter((r) => r.url.startsWith(`/resource/${DATASET}.json`));
    expect(pages.length).toBe(2); // 3 rows, pages of 2
    expect(new URLSearchParams(pages[0].url.split('?')[1]).get('$where')).toMatch(/^:updated_at > '\d{4}-\d{2}-\d{2}T/);
    const run = await getRun(pool, runId);
    expect(run?.counts.read).toBe(3);
    expect(run?.counts.events?.updated).toBe(3);
  });

  it('fails at once, without retries, on a permanent error (404), and keeps the data', async () => {
    const before = await pool.query(`SELECT count(*)::int AS n FROM events`);
    const missing = new IngestService(pool, new SocrataClient({ baseUrl: `${openData.url}/nowhere`, retries: 3, policy: LOCAL }));
    const runId = await createRun(pool, { source: 'hpd_litigations', trigger: 'test', input: 'download' });
    const requests = openData.requests.length;
    await expect(missing.run({ runId, source: 'hpd_litigations', input: { kind: 'download' }, observedOn: '2026-11-21', lastAttempt: false })).rejects.toBeInstanceOf(PermanentIngestError);
    expect(openData.requests.length - requests).toBe(1);
    expect((await getRun(pool, runId))?.status).toBe('failed');
    const after = await pool.query(`SELECT count(*)::int AS n FROM events`);
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });
});
