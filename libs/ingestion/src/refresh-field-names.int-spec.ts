import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { Pool } from 'pg';
import { csvToSodaRows, SOURCES, sodaFieldMap, type SourceDefinition, type SourcePart } from '@bhis/sources';
import { createTestDatabase, TestDatabase } from '@bhis/testing';
import { createRun, getRun, syncSourceCatalog } from '@bhis/runs';
import { IngestService } from './ingest-service';
import { loadSource } from './load-source';
import { SocrataClient } from './socrata';
import { FakeOpenData, LOCAL_DOWNLOADS } from './testing/fake-open-data';
import { LOCAL_FIXTURES, publishedColumns, seedUniverseFor, SHARED_FIXTURES } from './testing/fixtures';

/** The real file of a part: the current-format file first, then the shared rows, then the files built from field lists. */
function realFile(part: SourcePart): string | null {
  const names = part.fileNames.map((name) => name.toLowerCase());
  for (const dir of [path.join(LOCAL_FIXTURES, 'current'), SHARED_FIXTURES, LOCAL_FIXTURES]) {
    for (const name of names) if (existsSync(path.join(dir, name))) return path.join(dir, name);
  }
  return null;
}

/** Every source on Open Data with the real file of each part (the 2010-2019 311 set shares the main set's rows). */
const CASES = SOURCES.filter((source) => source.parts.some((part) => part.datasetId)).map((source) => {
  const parts = source.parts.filter((part) => part.datasetId);
  const files = parts.map((part) => realFile(part) ?? realFile(parts[0]));
  return [source.key, source, parts, files as string[]] as const;
});

/**
 * Every source's refresh through the download path, against a stand-in for Open Data that serves the
 * data set's published view metadata (libs/sources/test-fixtures/soda-metadata) and JSON rows built
 * from the real rows through that metadata: a first load from the CSV export, then a refresh. A
 * source refreshed incrementally reads the JSON rows; one replaced whole reads its export again, and
 * its JSON rows are loaded through the metadata on their own.
 */
describe('every source refreshes through its published field names', () => {
  let db: TestDatabase;
  let pool: Pool;
  let service: IngestService;
  const openData = new FakeOpenData();

  /** Sources found by BIN or registration id: their real rows' ids point at one building of the universe. */
  const seedIdentifiers = async () => {
    const column = (file: string, name: string) => (parseCsv(readFileSync(file), { columns: true, bom: true, relax_column_count: true }) as Record<string, string>[]).map((row) => Number(row[name]?.trim())).filter((id) => id > 0);
    await pool.query(`INSERT INTO buildings (bbl, borough, block, lot, address, residential_units) VALUES ('1000010001', 1, 1, 1, 'TEST', 10) ON CONFLICT (bbl) DO NOTHING`);
    await pool.query(`INSERT INTO bin_bbl (bin, bbl, source) SELECT DISTINCT b, '1000010001', 'test' FROM unnest($1::int[]) b ON CONFLICT (bin) DO NOTHING`, [column(path.join(SHARED_FIXTURES, 'dob_complaints.csv'), 'BIN')]);
    await pool.query(`INSERT INTO hpd_registrations (registration_id, bbl) SELECT DISTINCT r, '1000010001' FROM unnest($1::int[]) r ON CONFLICT (registration_id) DO NOTHING`, [column(path.join(SHARED_FIXTURES, 'hpd_contacts.csv'), 'RegistrationID')]);
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 4 });
    await syncSourceCatalog(pool);
    await seedIdentifiers();
    for (const [, source, parts, files] of CASES) {
      for (const [i, part] of parts.entries()) {
        await seedUniverseFor(pool, source, files[i]);
        const columns = publishedColumns(part.datasetId as string);
        const sodaRows = csvToSodaRows(part, readFileSync(files[i], 'utf8'), columns, { isoDates: true });
        openData.datasets.set(part.datasetId as string, { rowsUpdatedAt: 1_700_000_000, csvFile: files[i], columns, sodaRows });
      }
    }
    await openData.start();
    service = new IngestService(pool, new SocrataClient({ baseUrl: openData.url, retries: 0, pageSize: 1000, policy: LOCAL_DOWNLOADS }), { enforceMinimumRows: false });
  }, 120_000);

  afterAll(async () => {
    await openData.stop();
    await pool?.end();
    await db?.drop();
  });

  const download = async (source: string) => {
    const runId = await createRun(pool, { source, trigger: 'test', input: 'download' });
    const result = await service.run({ runId, source, input: { kind: 'download' }, observedOn: '2026-11-21', lastAttempt: true });
    expect(result.status).toBe('succeeded');
    return (await getRun(pool, runId))?.counts;
  };

  it('covers the 24 sources on Open Data and their 26 data sets', () => {
    expect(CASES).toHaveLength(24);
    expect(CASES.flatMap(([, , parts]) => parts)).toHaveLength(26);
  });

  it.each(CASES)('%s', async (key, source: SourceDefinition, parts) => {
    const first = await download(key);
    expect(first?.loaded).toBeGreaterThan(0);
    for (const part of parts) (openData.datasets.get(part.datasetId as string) as { rowsUpdatedAt: number }).rowsUpdatedAt += 60;
    const second = await download(key);
    expect(second?.unknown_fields).toEqual({});
    expect(second?.followed_columns).toEqual([]);
    expect(second?.loaded).toBe(first?.loaded);
    expect(second?.events?.inserted).toBe(0);
    if (source.refresh === 'incremental') {
      expect(second?.layout).toBe(parts.map(() => 'soda').join('+'));
      return;
    }
    expect(second?.layout).not.toContain('soda');
    for (const part of parts) {
      const dataset = openData.datasets.get(part.datasetId as string) as { sodaRows: Record<string, unknown>[]; columns: { name: string; fieldName: string }[] };
      const runId = await createRun(pool, { source: key, trigger: 'test', input: 'soda' });
      const rows = (async function* () {
        yield* dataset.sodaRows;
      })();
      const counts = await loadSource(pool, source, { kind: 'soda', rows, part: part.part, sodaFields: sodaFieldMap(source, part, dataset.columns) }, { runId, observedOn: '2026-11-22' });
      expect(counts.unknown_fields).toEqual({});
      expect(counts.loaded).toBe(second?.loaded);
      expect(counts.events?.inserted).toBe(0);
    }
  }, 60_000);
});
