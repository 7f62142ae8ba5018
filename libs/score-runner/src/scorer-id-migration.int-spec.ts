import type { QueryRunner } from 'typeorm';
import { Pool } from 'pg';
import { createTestDatabase, TestDatabase } from '@bhis/testing';
import { MIGRATIONS } from '@bhis/db';

const ScorerIdOfTheSpec = MIGRATIONS.find((m) => m.name === 'ScorerIdOfTheSpec1763704500000') as (typeof MIGRATIONS)[number];

const BBL = '3000100001';

/** Stored rows of the unreleased id take the contract's id (docs/interface-spec.md, scorer_id). */
describe('migration: the scorer id of the spec (real Postgres)', () => {
  let db: TestDatabase;
  let pool: Pool;
  const runner = () => ({ query: (sql: string, params?: unknown[]) => pool.query(sql, params) }) as unknown as QueryRunner;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 2 });
    await pool.query(
      `INSERT INTO buildings (bbl, borough, block, lot, address, city, zipcode, residential_units, total_units, year_built, building_class, num_buildings, in_hpd_jurisdiction, hpd_legal_units)
       VALUES ($1, 3, 10, 1, 'TEST STREET', 'BROOKLYN', '11201', 12, 12, 1931, 'C1', 1, true, 12)`,
      [BBL],
    );
    await pool.query(
      `INSERT INTO building_scores (bbl, run_id, as_of, scorer_id, total_score, health_score, grade, label, components, scores, counts, confidence, document)
       VALUES ($1, gen_random_uuid(), '2026-11-01', 'distress_v11_0', 40, 60, 'C', 'Fair', '{}',
               '{"total_score": 40, "scorer_id": "distress_v11_0"}', '{}', '{}', '{"scores": {"total_score": 40, "scorer_id": "distress_v11_0"}}')`,
      [BBL],
    );
    // an older point of the same day under the contract's id gives way; the earlier points keep their ids
    await pool.query(
      `INSERT INTO score_history (bbl, as_of, scorer_id, run_id, total_score, health_score, grade, components) VALUES
         ($1, '2025-11-01', 'distress_v10_1', gen_random_uuid(), 30, 70, 'B', '{}'),
         ($1, '2026-10-01', 'distress_v10_2', gen_random_uuid(), 33, 67, 'B', '{}'),
         ($1, '2026-10-01', 'distress_v11_0', gen_random_uuid(), 38, 62, 'C', '{}'),
         ($1, '2026-11-01', 'distress_v11_0', gen_random_uuid(), 40, 60, 'C', '{}')`,
      [BBL],
    );
    await pool.query(
      `INSERT INTO grade_crossings (run_id, bbl, as_of, scorer_id, previous_grade, previous_score, current_grade, current_score)
       VALUES (gen_random_uuid(), $1, '2026-11-01', 'distress_v11_0', 'B', 33, 'C', 40)`,
      [BBL],
    );
    await pool.query(`INSERT INTO scoring_runs (kind, scorer_id, as_of) VALUES ('full', 'distress_v11_0', '2026-11-01')`);
  }, 120_000);

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  it('renames every stored distress_v11_0 and keeps each history point its own id', async () => {
    await new ScorerIdOfTheSpec().up(runner());
    const current = await pool.query(`SELECT scorer_id, scores ->> 'scorer_id' AS in_scores, document -> 'scores' ->> 'scorer_id' AS in_document FROM building_scores`);
    expect(current.rows).toEqual([{ scorer_id: 'distress_v10_2', in_scores: 'distress_v10_2', in_document: 'distress_v10_2' }]);
    const history = await pool.query(`SELECT to_char(as_of, 'YYYY-MM-DD') AS as_of, scorer_id, total_score FROM score_history ORDER BY as_of`);
    expect(history.rows).toEqual([
      { as_of: '2025-11-01', scorer_id: 'distress_v10_1', total_score: 30 },
      { as_of: '2026-10-01', scorer_id: 'distress_v10_2', total_score: 38 },
      { as_of: '2026-11-01', scorer_id: 'distress_v10_2', total_score: 40 },
    ]);
    expect((await pool.query(`SELECT scorer_id FROM grade_crossings`)).rows).toEqual([{ scorer_id: 'distress_v10_2' }]);
    expect((await pool.query(`SELECT scorer_id FROM scoring_runs`)).rows).toEqual([{ scorer_id: 'distress_v10_2' }]);
    const left = await pool.query(
      `SELECT (SELECT count(*) FROM score_history WHERE scorer_id = 'distress_v11_0') + (SELECT count(*) FROM building_scores WHERE document::text LIKE '%v11_0%')::int AS n`,
    );
    expect(Number(left.rows[0].n)).toBe(0);
  });
});
