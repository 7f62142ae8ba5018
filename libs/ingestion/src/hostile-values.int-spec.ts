import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { Pool } from 'pg';
import { createTestDatabase, TestDatabase } from '@bhis/testing';
import { syncSourceCatalog } from '@bhis/runs';
import { fixtureFiles, loadFile, seedUniverseFor } from './testing/fixtures';

/**
 * Values no column of a real file should hold, each of which once failed the COPY of a whole file:
 * a NUL character (Postgres text cannot hold one), integers beyond a Postgres `integer`, ids that
 * are not numbers; with them values at the edges of what casts accept.
 */
const HOSTILE = [
  'A\u0000B',
  '3000000000',
  '-3000000000',
  '99999999999999999999999',
  'abc',
  '1e400',
  '-1',
  '0',
  '02/30/2024',
  '01/01/0000',
  '12/31/9999 11:59:59 PM',
  'A\r\nB',
  'x'.repeat(20_000),
];

describe('a file with a hostile value in every column', () => {
  let db: TestDatabase;
  let pool: Pool;
  const dir = mkdtempSync(path.join(tmpdir(), 'bhis-hostile-'));

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 4 });
    await syncSourceCatalog(pool);
  });

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * The fixture's rows repeated so that row i holds `value` in column i: each column of the source
   * meets the value once, in a row that is otherwise real.
   */
  function hostileFile(file: string, value: string): { file: string; rows: number } {
    const [header, ...rows] = parse(readFileSync(file), { bom: true, relax_column_count: true }) as string[][];
    const real = rows.filter((row) => row.length === header.length);
    const hostile = header.map((_, column) => {
      const row = [...real[column % real.length]];
      row[column] = value;
      return row;
    });
    const out = path.join(dir, `${HOSTILE.indexOf(value)}`, path.basename(file));
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, stringify([header, ...hostile]));
    return { file: out, rows: hostile.length };
  }

  it.each(fixtureFiles().map((f) => [path.basename(f.file), f] as const))('%s: the load goes on, and every row is accounted for', async (_name, { file, source }) => {
    await seedUniverseFor(pool, source, file);
    for (const value of HOSTILE) {
      const hostile = hostileFile(file, value);
      const outcome = await loadFile(pool, source, hostile.file).catch((error: Error) => error);
      if (outcome instanceof Error) throw new Error(`${source.key} failed on ${JSON.stringify(value.slice(0, 30))}: ${outcome.message}`);
      const { counts } = outcome;
      expect(counts.read).toBe(hostile.rows);
      expect(counts.read).toBe(counts.loaded + counts.quarantined + counts.out_of_scope);
    }
  });
});
