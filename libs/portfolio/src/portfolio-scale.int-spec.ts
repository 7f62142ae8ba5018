import { Pool } from 'pg';
import { createTestDatabase, TestDatabase, testRedisPrefix } from '@bhis/testing';
import type { PortfolioAnalysis } from './analyze/portfolio-analysis';
import { call, createKeys, dataOf, PortfolioTestApi, startPortfolioApi } from './testing/portfolio-test-api';
import { writeDocuments } from './testing/seed-buildings';

const CITY_TENTH = 44_500;

/** 10% of the city's buildings, scored, with flags and all seven components. */
async function seedCityTenth(pool: Pool): Promise<void> {
  await pool.query(
    `INSERT INTO buildings (bbl, borough, block, lot, address, address_search, residential_units, owner_name)
     SELECT (1 + g % 5)::text || lpad((g / 5 + 1)::text, 5, '0') || '0001', 1 + g % 5, g / 5 + 1, 1,
            g || ' SCALE STREET', g || ' SCALE STREET', g % 120, 'OWNER ' || (g % 997)
       FROM generate_series(0, ${CITY_TENTH - 1}) g`,
  );
  await pool.query(
    `INSERT INTO building_scores (bbl, run_id, as_of, scorer_id, total_score, health_score, grade, label, components, flags, scores, counts, confidence)
     SELECT bbl, gen_random_uuid(), '2026-11-20', 'distress_v10_2', s, 100 - s,
            CASE WHEN s >= 80 THEN 'F' WHEN s >= 60 THEN 'D' WHEN s >= 40 THEN 'C' WHEN s >= 20 THEN 'B' ELSE 'A' END, 'label',
            jsonb_build_object('living_conditions', jsonb_build_object('score', s), 'building_safety', jsonb_build_object('score', s),
              'complaint_burden', jsonb_build_object('score', s), 'management_quality', jsonb_build_object('score', s),
              'financial_distress', jsonb_build_object('score', s), 'deferred_maintenance', jsonb_build_object('score', s),
              'legal_enforcement', jsonb_build_object('score', s)),
            CASE WHEN s > 90 THEN ARRAY['fdny-vacate-active', 'open-class-c'] WHEN s > 70 THEN ARRAY['open-class-c'] ELSE '{}' END,
            '{}', '{"total_events": 12}', '{"score": 0.7, "tier": "medium"}'
       FROM (SELECT bbl, (hashtext(bbl) & 1023) % 101 AS s FROM buildings) x`,
  );
  await writeDocuments(pool);
  await pool.query('ANALYZE buildings; ANALYZE building_scores');
}

describe('portfolio endpoints at 10% city scale', () => {
  let db: TestDatabase;
  let pool: Pool;
  let api: PortfolioTestApi;
  let key: string;
  let bbls: string[];

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 2 });
    await seedCityTenth(pool);
    api = await startPortfolioApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix(), RATE_LIMIT_LIVE_PER_MIN: '1000000' });
    [{ key }] = await createKeys(db.url, [{ name: 'scale' }]);
    const { rows } = await pool.query<{ bbl: string }>(`SELECT bbl::text AS bbl FROM buildings ORDER BY md5(bbl) LIMIT 10000`);
    bbls = rows.map((r) => r.bbl);
  }, 120_000);

  afterAll(async () => {
    await api?.close();
    await pool?.end();
    await db?.drop();
  });

  it('analyzes 10,000 BBLs within 1.5 s', async () => {
    const timings: number[] = [];
    let data: PortfolioAnalysis | undefined;
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const res = await call(api.url, key, 'POST', '/api/v1/portfolio/analyze', { bbls });
      timings.push(performance.now() - started);
      expect(res.status).toBe(200);
      data = dataOf<PortfolioAnalysis>(res);
    }
    expect(data!.summary.found).toBe(10_000);
    expect(data!.worst_buildings).toHaveLength(25);
    expect(Math.max(...timings)).toBeLessThan(1_500);
  }, 60_000);

  it('exports 10,000 rows with a fast first byte', async () => {
    const started = performance.now();
    const res = await fetch(`${api.url}/api/v1/export/csv`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ bbls }),
    });
    const reader = res.body!.getReader();
    await reader.read();
    const firstByte = performance.now() - started;
    let lines = 0;
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      lines += (decoder.decode(value).match(/\n/g) ?? []).length;
    }
    expect(firstByte).toBeLessThan(1_000);
    expect(lines).toBeGreaterThan(9_000);
  }, 60_000);
});
