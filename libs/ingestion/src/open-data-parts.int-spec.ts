import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { eventAttributes } from '@bhis/db';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { csvToSodaRows, getSource, SourcePart } from '@bhis/sources';
import { createTestDatabase, TestDatabase } from '@bhis/testing';
import { IngestService, PermanentIngestError } from './ingest-service';
import { SocrataClient } from './socrata';
import { LOCAL_DOWNLOADS as LOCAL } from './testing/fake-open-data';
import { FakeOpenData } from './testing/fake-open-data';
import { publishedColumns, seedUniverseFor, SHARED_FIXTURES } from './testing/fixtures';
import { createRun, getRun, syncSourceCatalog } from '@bhis/runs';

const fixture = (name: string) => path.join(SHARED_FIXTURES, name);

describe('Open Data downloads: every part through the CSV and the SODA path, metadata kept with the run', () => {
  let db: TestDatabase;
  let pool: Pool;
  let service: IngestService;
  const openData = new FakeOpenData();
  const tmp = mkdtempSync(path.join(tmpdir(), 'bhis-open-data-'));

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 4 });
    await syncSourceCatalog(pool);
    const repairs = getSource('hpd_emergency_repairs');
    await seedUniverseFor(pool, repairs, fixture('hpd_omo_charges.csv'));
    await seedUniverseFor(pool, repairs, fixture('hpd_hwo_charges.csv'));
    await seedUniverseFor(pool, getSource('nyc311'), fixture('nyc311_service_requests.csv'));
    await seedUniverseFor(pool, getSource('hpd_litigations'), fixture('hpd_litigations.csv'));
    await openData.start();
    service = new IngestService(pool, new SocrataClient({ baseUrl: openData.url, retries: 0, pageSize: 3, policy: LOCAL }), { enforceMinimumRows: false });
  });

  afterAll(async () => {
    await openData.stop();
    await pool?.end();
    await db?.drop();
    rmSync(tmp, { recursive: true, force: true });
  });

  const download = async (source: string) => {
    const runId = await createRun(pool, { source, trigger: 'test', input: 'download' });
    const result = await service.run({ runId, source, input: { kind: 'download' }, observedOn: '2026-11-21', lastAttempt: true });
    return { runId, result, run: await getRun(pool, runId) };
  };

  const serve = (part: SourcePart, csvFile: string) => {
    const columns = publishedColumns(part.datasetId as string);
    const rows = csvToSodaRows(part, readFileSync(csvFile, 'utf8'), columns, { isoDates: true });
    openData.datasets.set(part.datasetId as string, { rowsUpdatedAt: 1_700_000_000, csvFile, columns, sodaRows: rows });
  };

  it.each([
    ['hpd_emergency_repairs', { omo: 'hpd_omo_charges.csv', hwo: 'hpd_hwo_charges.csv' }],
    ['nyc311', { main: 'nyc311_service_requests.csv', y2010_2019: 'nyc311_service_requests.csv' }],
  ] as const)('%s: each part is read as itself, from the CSV export and then from SODA pages', async (key, files) => {
    const source = getSource(key);
    for (const part of source.parts) serve(part, fixture((files as Record<string, string>)[part.part]));
    const first = await download(key);
    expect(first.result.status).toBe('succeeded');
    expect(first.run?.counts.part).toBe(source.parts.map((part) => part.part).join('+'));
    expect(first.run?.counts.quarantined).toBe(0);

    // the data sets change: the next refresh pulls the changed rows of every part as JSON
    for (const part of source.parts) (openData.datasets.get(part.datasetId as string) as { rowsUpdatedAt: number }).rowsUpdatedAt += 60;
    const before = openData.requests.length;
    const second = await download(key);
    expect(second.result.status).toBe('succeeded');
    const pages = openData.requests.slice(before).filter((r) => r.url.startsWith('/resource/')).map((r) => r.url);
    for (const part of source.parts) expect(pages.some((url) => url.startsWith(`/resource/${part.datasetId}.json`))).toBe(true);
    expect(second.run?.counts.part).toBe(source.parts.map((part) => part.part).join('+'));
    expect(second.run?.counts.quarantined).toBe(0);
    expect(second.run?.counts.read).toBe(first.run?.counts.read);
    expect(second.run?.counts.loaded).toBe(first.run?.counts.loaded);
    expect(second.run?.counts.events?.inserted).toBe(0);
  });

  it('maps a renamed CSV display name through the metadata, keeps the metadata with the run, and checks SODA fields first', async () => {
    const part = getSource('hpd_litigations').parts[0];
    const text = readFileSync(fixture('hpd_litigations.csv'), 'utf8');
    const [headerLine, ...rest] = text.split('\n');
    const header = headerLine.replace(/\r$/, '').split(',');
    const renamed = header.map((name) => (name === 'CaseType' ? 'Case Type (formerly CaseType)' : name));
    const file = path.join(tmp, 'hpd_litigations.csv');
    writeFileSync(file, [renamed.join(','), ...rest].join('\n'));
    const columns = publishedColumns(part.datasetId as string).map((column) => (column.name === 'CaseType' ? { ...column, name: 'Case Type (formerly CaseType)' } : column));
    openData.datasets.set(part.datasetId as string, { rowsUpdatedAt: 1_700_000_000, csvFile: file, columns, sodaRows: [] });

    const first = await download('hpd_litigations');
    expect(first.result.status).toBe('succeeded');
    expect(first.run?.counts.quarantined).toBe(0);
    expect(first.run?.counts.layout).toBe('metadata');
    const stored = await pool.query(`SELECT dataset_metadata FROM ingest_runs WHERE id = $1`, [first.runId]);
    expect(stored.rows[0].dataset_metadata.main.columns).toContainEqual({ name: 'Case Type (formerly CaseType)', fieldName: 'casetype' });
    const litigations = await pool.query(`SELECT attributes, record FROM events WHERE source = 'hpd_litigations'`);
    expect(litigations.rows.filter((r) => 'case_type' in eventAttributes('hpd_litigations', r.attributes, r.record)).length).toBeGreaterThan(0);

    // the data set no longer publishes a column the source reads: the pull stops before the first page
    const dataset = openData.datasets.get(part.datasetId as string) as { rowsUpdatedAt: number; columns: { name: string; fieldName: string }[] };
    dataset.rowsUpdatedAt += 60;
    dataset.columns = dataset.columns.filter((column) => column.fieldName !== 'casestatus');
    const before = openData.requests.length;
    const runId = await createRun(pool, { source: 'hpd_litigations', trigger: 'test', input: 'download' });
    await expect(service.run({ runId, source: 'hpd_litigations', input: { kind: 'download' }, observedOn: '2026-11-22', lastAttempt: false })).rejects.toBeInstanceOf(PermanentIngestError);
    expect((await getRun(pool, runId))?.error).toMatch(/hpd_litigations \(main, data set 59kj-x8nc\).*"CaseStatus" \(declared field casestatus\) is not published/);
    expect(openData.requests.slice(before).some((r) => r.url.startsWith('/resource/'))).toBe(false);
  });

  it('a whole-replace set is read whole on every refresh, and what its export no longer carries is closed', async () => {
    const source = getSource('hpd_aep');
    const part = source.parts[0];
    const file = fixture('hpd_aep.csv');
    await seedUniverseFor(pool, source, file);
    openData.datasets.set(part.datasetId as string, { rowsUpdatedAt: 1_700_000_000, csvFile: file, columns: publishedColumns(part.datasetId as string), sodaRows: [] });
    const first = await download('hpd_aep');
    expect(first.run?.counts.vanished).toBe(0);
    const lines = readFileSync(file, 'utf8').replace(/\r/g, '').split('\n').filter(Boolean);
    const shorter = path.join(tmp, 'hpd_aep.csv');
    writeFileSync(shorter, `${lines.slice(0, -1).join('\n')}\n`);
    const dataset = openData.datasets.get(part.datasetId as string) as { rowsUpdatedAt: number; csvFile: string };
    dataset.rowsUpdatedAt += 60;
    dataset.csvFile = shorter;
    const before = openData.requests.length;
    const second = await download('hpd_aep');
    const urls = openData.requests.slice(before).map((r) => r.url);
    expect(urls.some((url) => url.startsWith(`/api/views/${part.datasetId}/rows.csv`))).toBe(true);
    expect(urls.some((url) => url.startsWith('/resource/'))).toBe(false);
    expect(second.run?.counts.vanished).toBeGreaterThan(0);
    const closed = await pool.query(`SELECT count(*)::int AS n FROM events WHERE source = 'hpd_aep' AND attributes ->> 'vanished_on' = '2026-11-21'`);
    expect(closed.rows[0].n).toBe(second.run?.counts.vanished);
  });
});
