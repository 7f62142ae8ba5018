import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { csvToSodaRows, getSource } from '@bhis/sources';
import { syncSourceCatalog } from '@bhis/runs';
import { createTestDatabase, TestDatabase } from '@bhis/testing';
import { loadFile, loadRows, publishedColumns, seedUniverseFor, SHARED_FIXTURES } from './testing/fixtures';

/** A record loaded from the CSV export and refreshed from the JSON API is one event, not two. */
describe('one record through the file and the refresh', () => {
  let db: TestDatabase;
  let pool: Pool;
  const tmp = mkdtempSync(path.join(tmpdir(), 'bhis-named-formats-'));

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 4 });
    await syncSourceCatalog(pool);
  });

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
    rmSync(tmp, { recursive: true, force: true });
  });

  const loadJson = (source: string, rows: Record<string, unknown>[]) => loadRows(pool, source, rows);

  const count = async (source: string) => Number((await pool.query(`SELECT count(*) AS n FROM events WHERE source = $1`, [source])).rows[0].n);

  it('dob_safety_violations: the 2026 closing words load with a status, an unknown word is kept and counted in the run', async () => {
    const source = getSource('dob_safety_violations');
    const file = path.join(SHARED_FIXTURES, 'dob_safety_violations.csv');
    await seedUniverseFor(pool, source, file);
    // the real rows, their status set to the published words (docs/sources.md, status words) and one new word
    const words = ['Disputed Successfully', 'Waived - Pending Dismissal', 'Pending Dismissal', 'Paid  - Pending Dismissal', 'Cured', 'Active', 'Dismissed', 'Reopened Later'];
    const rows = csvToSodaRows(source.parts[0], readFileSync(file, 'utf8'), publishedColumns(source.parts[0].datasetId ?? '')).map((row, i) => ({ ...row, violation_status: words[i % words.length] }));
    const counts = await loadJson('dob_safety_violations', rows);
    expect(counts.unmapped_values).toEqual({ 'Violation Status: REOPENED LATER': 1 });
    expect(counts.quarantined).toBe(0);
    const stored = await pool.query<{ status: string | null; n: string }>(
      `SELECT status::text AS status, count(*) AS n FROM events WHERE source = 'dob_safety_violations' GROUP BY 1 ORDER BY 1`,
    );
    expect(Object.fromEntries(stored.rows.map((r) => [r.status ?? 'none', Number(r.n)]))).toEqual({ dismissed: 3, none: 1, open: 1, resolved: 4 });
  });

  it('dob_complaints: an alphanumeric complaint number is stored and refreshed as the same record', async () => {
    const source = getSource('dob_complaints');
    const [header, ...lines] = readFileSync(path.join(SHARED_FIXTURES, 'dob_complaints.csv'), 'utf8').trimEnd().split('\n');
    // real rows, the first with a number in the shape DOB now also issues (digits and a letter)
    const rows = lines.slice(0, 3).map((line, i) => (i === 0 ? line.replace(/^\d+,/, '4A28951,') : line));
    const file = path.join(tmp, 'dob_complaints.csv');
    writeFileSync(file, `${[header, ...rows].join('\n')}\n`);
    const bins = rows.map((line) => Number(line.split(',')[6]));
    await pool.query(
      `INSERT INTO buildings (bbl, borough, block, lot, address, residential_units)
       SELECT b, substr(b, 1, 1)::smallint, substr(b, 2, 5)::int, substr(b, 7, 4)::int, 'TEST ' || b, 10 FROM unnest($1::text[]) b ON CONFLICT (bbl) DO NOTHING`,
      [bins.map((bin, i) => `${String(bin)[0]}0000${i + 1}0001`)],
    );
    await pool.query(`INSERT INTO bin_bbl (bin, bbl, source) SELECT * FROM unnest($1::int[], $2::text[], $3::text[]) ON CONFLICT DO NOTHING`, [
      bins,
      bins.map((bin, i) => `${String(bin)[0]}0000${i + 1}0001`),
      bins.map(() => 'test'),
    ]);
    await loadFile(pool, source, file);
    const keys = (await pool.query(`SELECT source_record_id FROM events WHERE source = 'dob_complaints' ORDER BY 1`)).rows.map((r) => r.source_record_id);
    expect(keys).toHaveLength(3);
    expect(keys).toContain('4A28951');
    const refreshed = await loadJson('dob_complaints', csvToSodaRows(source.parts[0], readFileSync(file, 'utf8'), publishedColumns(source.parts[0].datasetId ?? '')));
    expect(refreshed.events.inserted).toBe(0);
    expect(await count('dob_complaints')).toBe(3);
  });

  it('dof_tax_liens: the CSV month `04/2019` and the JSON month `2019-04-01T00:00:00.000` key one listing', async () => {
    const source = getSource('dof_tax_liens');
    const file = path.join(SHARED_FIXTURES, 'dof_tax_lien_sale_list.csv');
    await seedUniverseFor(pool, source, file);
    await loadFile(pool, source, file);
    const stored = await count('dof_tax_liens');
    expect(stored).toBe(60);
    // the API serves `month` as the first of the month (docs/sources.md, tax liens)
    const rows = csvToSodaRows(source.parts[0], readFileSync(file, 'utf8'), publishedColumns(source.parts[0].datasetId ?? '')).map((row) => ({ ...row, month: row['month'].replace(/^(\d{2})\/(\d{4})$/, '$2-$1-01T00:00:00.000') }));
    const refreshed = await loadJson('dof_tax_liens', rows);
    expect(refreshed.events.inserted).toBe(0);
    expect(await count('dof_tax_liens')).toBe(stored);
  });

  it('dohmh_rodents: the CSV time `06/07/2023 04:36:13 PM` and the JSON `2023-06-07T16:36:13.000` key one visit', async () => {
    const source = getSource('dohmh_rodents');
    const file = path.join(SHARED_FIXTURES, 'dohmh_rodent_inspections.csv');
    await seedUniverseFor(pool, source, file);
    await loadFile(pool, source, file);
    const stored = await count('dohmh_rodents');
    expect(stored).toBe(5);
    const refreshed = await loadJson('dohmh_rodents', csvToSodaRows(source.parts[0], readFileSync(file, 'utf8'), publishedColumns(source.parts[0].datasetId ?? ''), { isoDates: true }));
    expect(refreshed.events.inserted).toBe(0);
    expect(await count('dohmh_rodents')).toBe(stored);
  });
});
