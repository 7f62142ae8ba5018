import path from 'node:path';
import { Pool } from 'pg';
import { eventAttributes } from '@bhis/db';
import { getSource } from '@bhis/sources';
import { createTestDatabase, TestDatabase } from '@bhis/testing';
import { IngestService, PermanentIngestError } from './ingest-service';
import { SocrataClient } from './socrata';
import { LOCAL_DOWNLOADS as LOCAL } from './testing/fake-open-data';
import { FakeDataset, FakeOpenData } from './testing/fake-open-data';
import { publishedColumns, seedUniverseFor, SHARED_FIXTURES } from './testing/fixtures';
import { createRun, getRun, syncSourceCatalog } from '@bhis/runs';

const DATASET = getSource('hpd_litigations').parts[0].datasetId as string;
const FIXTURE = path.join(SHARED_FIXTURES, 'hpd_litigations.csv');

describe('downloading a source from (a local stand-in for) NYC Open Data', () => {
  let db: TestDatabase;
  let pool: Pool;
  const openData = new FakeOpenData();
  const litigations: FakeDataset = { rowsUpdatedAt: 1_700_000_000, csvFile: FIXTURE, columns: publishedColumns(DATASET), sodaRows: [] };
  /** The field name the published view metadata gives a display column. */
  const field = (display: string) => (litigations.columns.find((column) => column.name === display) as { fieldName: string }).fieldName;
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
    litigations.sodaRows = existing.rows.map((r, i) => ({
      [field('LitigationID')]: r.source_record_id,
      [field('BBL')]: r.bbl,
      [field('CaseType')]: 'Heat and Hot Water',
      [field('CaseOpenDate')]: '2026-11-0' + (i + 1) + 'T00:00:00.000',
      [field('CaseStatus')]: 'OPEN',
      [field('OpenJudgement')]: 'YES',
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
    expect(run?.counts.unknown_fields).toEqual({});
    expect(await judgements()).toMatchObject({ true: 3 });
  });

  /** Litigations by the value of their open judgement (read from the published `casejudgement` column). */
  const judgements = async (): Promise<Record<string, number>> => {
    const { rows } = await pool.query(`SELECT attributes, record FROM events WHERE source = 'hpd_litigations'`);
    const counts: Record<string, number> = {};
    for (const row of rows) {
      const value = String(eventAttributes('hpd_litigations', row.attributes, row.record)['open_judgement']);
      counts[value] = (counts[value] ?? 0) + 1;
    }
    return counts;
  };

  const refreshWith = async (change: () => void) => {
    litigations.rowsUpdatedAt += 3600;
    change();
    const runId = await createRun(pool, { source: 'hpd_litigations', trigger: 'test', input: 'download' });
    const outcome = await service.run({ runId, source: 'hpd_litigations', input: { kind: 'download' }, observedOn: '2026-11-22', lastAttempt: false }).then(
      (result) => ({ result, error: null }),
      (error: unknown) => ({ result: null, error }),
    );
    return { ...outcome, run: await getRun(pool, runId) };
  };

  it('counts a field the rows carry that the metadata does not publish', async () => {
    const { result, run } = await refreshWith(() => {
      litigations.sodaRows = litigations.sodaRows.map((row) => ({ ...row, case_judge_name: 'A' }));
    });
    expect(result?.status).toBe('succeeded');
    expect(run?.counts.unknown_fields).toEqual({ case_judge_name: 3 });
  });

  it('follows a column the city renamed (display name and a `_1` field), and says so in the counts', async () => {
    const original = { columns: litigations.columns, rows: litigations.sodaRows };
    const before = await judgements();
    const { result, run } = await refreshWith(() => {
      litigations.columns = original.columns.map((column) => (column.fieldName === 'casejudgement' ? { name: 'Case Judgement', fieldName: 'casejudgement_1' } : column));
      litigations.sodaRows = original.rows.map(({ casejudgement, ...row }) => ({ ...row, casejudgement_1: casejudgement === 'YES' ? 'NO' : casejudgement }));
    });
    Object.assign(litigations, { columns: original.columns, sodaRows: original.rows });
    expect(result?.status).toBe('succeeded');
    expect(run?.counts.followed_columns).toEqual(['OpenJudgement -> field casejudgement_1 ("Case Judgement")']);
    expect(before.true).toBe(3);
    expect(await judgements()).toEqual({ false: before.false + 3 });
  });

  it('fails loudly naming the column when a rename cannot be followed, and keeps the data', async () => {
    const before = await pool.query(`SELECT count(*)::int AS n, md5(string_agg(attributes::text, ',' ORDER BY source_record_id)) AS digest FROM events`);
    const original = litigations.columns;
    const { error, run } = await refreshWith(() => {
      litigations.columns = original.map((column) => (column.fieldName === 'casejudgement' ? { name: 'Judgment Entered', fieldName: 'judgment_entered' } : column));
    });
    litigations.columns = original;
    expect(error).toBeInstanceOf(PermanentIngestError);
    expect(run?.status).toBe('failed');
    expect(run?.error).toMatch(/hpd_litigations \(main, data set 59kj-x8nc\).*"OpenJudgement" \(declared field casejudgement\) is not published.*previous data is kept/);
    const after = await pool.query(`SELECT count(*)::int AS n, md5(string_agg(attributes::text, ',' ORDER BY source_record_id)) AS digest FROM events`);
    expect(after.rows[0]).toEqual(before.rows[0]);
  });

  it.each([
    ['lists no columns', (dataset: FakeDataset) => (dataset.columns = []), /data set 59kj-x8nc \(main\): the view metadata lists no columns/],
    ['is not JSON', (dataset: FakeDataset) => (dataset.body = '{"columns": ['), /data set 59kj-x8nc \(main\): the view metadata is not JSON/],
    ['has a column without a field name', (dataset: FakeDataset) => (dataset.columns = [...dataset.columns, { name: 'Mystery' } as FakeDataset['columns'][number]]), /the view metadata is malformed: column 25 \(\{"name":"Mystery"\}\)/],
  ])('a metadata document that %s fails the run (to be retried) and keeps the data', async (_what, breakIt, message) => {
    const before = await pool.query(`SELECT count(*)::int AS n, md5(string_agg(attributes::text, ',' ORDER BY source_record_id)) AS digest FROM events`);
    const original = { ...litigations };
    const { error, run } = await refreshWith(() => breakIt(litigations));
    Object.assign(litigations, { columns: original.columns, body: undefined });
    expect(error).not.toBeInstanceOf(PermanentIngestError);
    expect(run?.status).toBe('retrying');
    expect(run?.error).toMatch(message);
    const after = await pool.query(`SELECT count(*)::int AS n, md5(string_agg(attributes::text, ',' ORDER BY source_record_id)) AS digest FROM events`);
    expect(after.rows[0]).toEqual(before.rows[0]);
  });

  it('rows that disagree with the metadata fail the run (to be retried) and keep the data', async () => {
    const before = await pool.query(`SELECT count(*)::int AS n, md5(string_agg(attributes::text, ',' ORDER BY source_record_id)) AS digest FROM events`);
    const rows = litigations.sodaRows;
    const { error, run } = await refreshWith(() => {
      litigations.sodaRows = rows.map(({ casestatus, ...row }) => ({ ...row, case_status: casestatus }));
    });
    litigations.sodaRows = rows;
    expect(error).not.toBeInstanceOf(PermanentIngestError);
    expect(run?.status).toBe('retrying');
    expect(run?.error).toMatch(/hpd_litigations \(main, data set 59kj-x8nc\): the rows and the view metadata disagree: the rows carry case_status where it names casestatus, which no row carries/);
    const after = await pool.query(`SELECT count(*)::int AS n, md5(string_agg(attributes::text, ',' ORDER BY source_record_id)) AS digest FROM events`);
    expect(after.rows[0]).toEqual(before.rows[0]);
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
