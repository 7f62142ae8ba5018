import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { Pool } from 'pg';
import { publicHousingBbls, runScoring } from '@bhis/score-runner';
import { DEFAULT_AS_OF, generateCity } from '@bhis/synth';
import { createTestDatabase, TestDatabase } from '@bhis/testing';
import { DEMO_CITY } from './demo-steps';
import { loadCity } from './validate';

/** The building files: PLUTO (owner), HPD jurisdiction (management program) and the registrations. */
const BUILDING_SOURCES = new Set(['pluto', 'hpd_jurisdiction', 'hpd_registrations', 'hpd_registration_contacts']);

/** The generated city's public housing, read and scored as the real files would be (real Postgres). */
describe('public housing of a generated city, loaded and scored', () => {
  let db: TestDatabase;
  let pool: Pool;
  let dir: string;
  let marked: Set<string>;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'bhis-public-housing-'));
    // the demo city, 5 years of history: a few of its lots of 50+ units are public housing
    await generateCity({ ...DEMO_CITY, outDir: dir, years: 5 });
    const truth = parse(readFileSync(path.join(dir, 'truth.csv')), { columns: true }) as Record<string, string>[];
    marked = new Set(truth.filter((row) => row.public_housing === '1').map((row) => row.bbl));
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 4 });
    await loadCity(pool, dir, BUILDING_SOURCES);
    await runScoring(pool, { runId: randomUUID(), kind: 'full', asOf: DEFAULT_AS_OF, writeCurrent: true });
  }, 300_000);

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('loads them with the NYCHA management program, the housing authority as owner and no registration', async () => {
    expect(marked.size).toBeGreaterThanOrEqual(2);
    const { rows } = await pool.query<{ bbl: string; management_program: string; owner_name: string; registration_end_date: string | null }>(
      `SELECT bbl, management_program, owner_name, registration_end_date FROM buildings WHERE bbl = ANY($1::char(10)[]) ORDER BY bbl`,
      [[...marked]],
    );
    expect(rows.map((r) => r.bbl)).toEqual([...marked].sort());
    for (const r of rows) {
      expect(r).toMatchObject({ management_program: 'NYCHA', owner_name: 'NEW YORK CITY HOUSING AUTHORITY', registration_end_date: null });
    }
  });

  it('scores them with the public-housing limit: lowest confidence, a reason, a grade between B and D', async () => {
    const { rows } = await pool.query<{ bbl: string; grade: string; flags: string[]; confidence: { tier: string; reason: string | null } }>(
      `SELECT bbl, grade, flags, confidence FROM building_scores WHERE 'public-housing' = ANY(flags) ORDER BY bbl`,
    );
    expect(rows.map((r) => r.bbl)).toEqual([...marked].sort());
    for (const r of rows) {
      expect(r.confidence.tier).toBe('insufficient');
      expect(r.confidence.reason).toMatch(/public housing/i);
      expect(['B', 'C', 'D']).toContain(r.grade);
    }
  });

  it('is what the validation harness leaves out of its rankings', async () => {
    expect([...(await publicHousingBbls(pool))].sort()).toEqual([...marked].sort());
  });
});
