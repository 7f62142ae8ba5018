import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { createTestDatabase, TestDatabase } from '@bhis/testing';
import { AREA_REPORTING_SQL, areaComplaintPropensity } from './feature-queries';
import { runScoring } from './scoring-run';

const AS_OF = '2026-11-01';

async function seedBuilding(pool: Pool, bbl: string, zipcode: string, extra: { program?: string; owner?: string; units?: number } = {}) {
  const units = extra.units ?? 30;
  await pool.query(
    `INSERT INTO buildings (bbl, borough, block, lot, address, city, zipcode, residential_units, total_units, year_built,
                            building_class, num_buildings, in_hpd_jurisdiction, hpd_legal_units, registration_end_date, owner_name,
                            management_program)
     VALUES ($1, 2, $2, $3, $4, 'BRONX', $5, $6, $6, 1925, 'C4', 1, true, $6, '2027-09-01', $7, $8)`,
    [bbl, Number(bbl.slice(1, 6)), Number(bbl.slice(6)), `${bbl.slice(6)} TEST AVENUE`, zipcode, units, extra.owner ?? 'OWNER LLC', extra.program ?? 'PVT'],
  );
}

async function seedEvents(pool: Pool, bbl: string, n: number, e: { type: string; source: string; category: string; severity: string; status: string; on: string }) {
  for (let i = 0; i < n; i++) {
    await pool.query(
      `INSERT INTO events (bbl, source, source_record_id, event_type, category, severity, status, occurred_on, attributes, row_hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, '{}', 'x')`,
      [bbl, e.source, `${bbl}-${e.type}-${i}-${randomUUID().slice(0, 6)}`, e.type, e.category, e.severity, e.status, e.on],
    );
  }
}

const complaint = { type: 'complaint_311', source: 'nyc311', category: 'heat_hot_water', severity: 'medium', status: 'closed', on: '2026-05-01' };
const violation = { type: 'hpd_violation', source: 'hpd_violations', category: 'habitability', severity: 'high', status: 'closed', on: '2026-05-01' };

describe('known limits in scoring runs (real Postgres)', () => {
  let db: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 4 });
  });

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  it('weighs complaints from an under-reporting area more, not less (fewer complaints per recorded condition)', async () => {
    // 10451: distressed and under-reporting: many complaints per unit, but few per condition found
    await seedBuilding(pool, '2000200001', '10451');
    await seedEvents(pool, '2000200001', 300, violation);
    await seedEvents(pool, '2000200001', 60, complaint);
    // 10021: few conditions, and tenants report each one many times over
    await seedBuilding(pool, '2000200002', '10021');
    await seedEvents(pool, '2000200002', 10, violation);
    await seedEvents(pool, '2000200002', 30, complaint);

    const propensity = await areaComplaintPropensity(pool, AS_OF, { recount: true });
    expect(propensity.get('10451')).toBeLessThan(1);
    expect(propensity.get('10021')).toBeGreaterThan(1);
  });

  it('counts the propensity of a month over the twelve months before it, once a month but by full runs', async () => {
    const keptFor10460 = async () => {
      const { rows } = await pool.query<{ counts: { zipcode: string; complaints: number; conditions: number }[] }>(
        `SELECT counts FROM area_reporting_counts WHERE month = '2027-01-01'`,
      );
      return rows[0]?.counts.find((c) => c.zipcode === '10460');
    };
    await seedBuilding(pool, '2000400001', '10460');
    await seedEvents(pool, '2000400001', 4, { ...violation, on: '2026-12-31' });
    await seedEvents(pool, '2000400001', 3, { ...complaint, on: '2026-01-01' });
    // outside the twelve months before January: the month itself, and the day before the twelve months
    await seedEvents(pool, '2000400001', 5, { ...complaint, on: '2027-01-10' });
    await seedEvents(pool, '2000400001', 6, { ...violation, on: '2025-12-31' });
    const first = await areaComplaintPropensity(pool, '2027-01-20', { recount: false });
    expect(await keptFor10460()).toEqual({ zipcode: '10460', complaints: 3, conditions: 4 });
    // a record of the counted year that arrives later: the month's runs keep what they counted, a full run counts it
    await seedEvents(pool, '2000400001', 2, { ...complaint, on: '2026-12-20' });
    expect(await areaComplaintPropensity(pool, '2027-01-29', { recount: false })).toEqual(first);
    const recounted = await areaComplaintPropensity(pool, '2027-01-29', { recount: true });
    expect(await keptFor10460()).toEqual({ zipcode: '10460', complaints: 5, conditions: 4 });
    expect(recounted.get('10460')).toBeGreaterThan(first.get('10460') ?? Infinity);
    // another month is counted on its own
    await areaComplaintPropensity(pool, '2027-02-02', { recount: false });
    const months = await pool.query<{ month: string }>(`SELECT to_char(month, 'YYYY-MM-DD') AS month FROM area_reporting_counts WHERE month > '2026-12-01' ORDER BY 1`);
    expect(months.rows.map((r) => r.month)).toEqual(['2027-01-01', '2027-02-01']);
  });

  it('reads the last year of complaints and conditions from their index, never the whole of events', async () => {
    const client = await pool.connect();
    try {
      // a handful of rows would be scanned whatever the indexes: what matters is that the index can serve the read
      await client.query('SET enable_seqscan = off');
      const plan = (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (COSTS OFF) ${AREA_REPORTING_SQL}`, [AS_OF])).rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(plan).toMatch(/events_p\d+_occurred_on_bbl_event_type_idx/);
      expect(plan).not.toMatch(/Seq Scan on events_p/);
    } finally {
      await client.query('RESET enable_seqscan');
      client.release();
    }
  });

  it('flags public housing, keeps it out of the peer statistics and marks its grade changes quiet', async () => {
    await seedBuilding(pool, '2000300001', '10454', { program: 'NYCHA', owner: 'NEW YORK CITY HOUSING AUTHORITY', units: 400 });
    await seedEvents(pool, '2000300001', 4, { ...complaint, on: '2026-10-01' });
    const first = await runScoring(pool, { runId: randomUUID(), kind: 'full', asOf: AS_OF, writeCurrent: true });
    expect(first.failed).toBe(0);
    const { rows } = await pool.query<{ grade: string; flags: string[]; confidence: { tier: string; reason: string | null } }>(
      `SELECT grade, flags, confidence FROM building_scores WHERE bbl = '2000300001'`,
    );
    expect(rows[0].flags).toContain('public-housing');
    expect(rows[0].grade).not.toBe('A');
    expect(rows[0].confidence.tier).toBe('insufficient');
    expect(rows[0].confidence.reason).toMatch(/public housing/i);

    // a grade change of the public housing building is recorded with its quiet reason
    await pool.query(`UPDATE building_scores SET grade = 'F', total_score = 90 WHERE bbl = '2000300001'`);
    const runId = randomUUID();
    await runScoring(pool, { runId, kind: 'full', asOf: AS_OF, writeCurrent: true });
    const crossing = await pool.query<{ quiet_reason: string | null }>(`SELECT quiet_reason FROM grade_crossings WHERE run_id = $1 AND bbl = '2000300001'`, [runId]);
    expect(crossing.rows[0].quiet_reason).toBe('public-housing');
  });

  it('holds the score while a loaded source is stale and nothing new is recorded, and tells monitors the net change when it returns', async () => {
    const setSource = (refreshed: string) =>
      pool.query(
        `INSERT INTO sources (key, name, agency, cadence, last_refreshed_at, latest_record_date, status)
         VALUES ('hpd_violations', 'HPD violations', 'HPD', 'daily', $1, '2026-08-31', 'ok')
         ON CONFLICT (key) DO UPDATE SET last_refreshed_at = EXCLUDED.last_refreshed_at, latest_record_date = EXCLUDED.latest_record_date`,
        [refreshed],
      );
    const crossingsOf = async (runId: string, bbl: string) =>
      (
        await pool.query<{ previous_grade: string; current_grade: string; quiet_reason: string | null }>(
          `SELECT previous_grade, current_grade, quiet_reason FROM grade_crossings WHERE run_id = $1 AND bbl = $2`,
          [runId, bbl],
        )
      ).rows;
    const current = async (bbl: string) =>
      (await pool.query<{ grade: string; total_score: number }>(`SELECT grade, total_score FROM building_scores WHERE bbl = $1`, [bbl])).rows[0];
    const bbl = '2000200001';
    await setSource(AS_OF);
    await runScoring(pool, { runId: randomUUID(), kind: 'full', asOf: AS_OF, writeCurrent: true });
    const real = await current(bbl);
    expect(real.grade).not.toBe('A');

    // what monitors were last told: A; the feed then stops and nothing new is recorded
    await pool.query(`UPDATE building_scores SET grade = 'A', total_score = 5, as_of = $1 WHERE bbl = $2`, [AS_OF, bbl]);
    await setSource('2026-09-01');
    const stale = randomUUID();
    await runScoring(pool, { runId: stale, kind: 'full', asOf: AS_OF, writeCurrent: true });
    expect(await current(bbl)).toEqual({ grade: 'A', total_score: 5 });
    expect(await crossingsOf(stale, bbl)).toEqual([]);
    const point = await pool.query<{ grade: string }>(`SELECT grade FROM score_history WHERE run_id = $1 AND bbl = $2`, [stale, bbl]);
    expect(point.rows).toEqual([{ grade: 'A' }]);

    // the feed returns: the change is measured from what monitors were told
    await setSource(AS_OF);
    const back = randomUUID();
    await runScoring(pool, { runId: back, kind: 'full', asOf: AS_OF, writeCurrent: true });
    expect(await crossingsOf(back, bbl)).toEqual([{ previous_grade: 'A', current_grade: real.grade, quiet_reason: null }]);
    expect(await current(bbl)).toEqual(real);

    // stale again with no net change: held, then nothing to tell when it returns
    await setSource('2026-09-01');
    await runScoring(pool, { runId: randomUUID(), kind: 'full', asOf: AS_OF, writeCurrent: true });
    await setSource(AS_OF);
    const same = randomUUID();
    await runScoring(pool, { runId: same, kind: 'full', asOf: AS_OF, writeCurrent: true });
    expect(await crossingsOf(same, bbl)).toEqual([]);

    // a new record since the previous score is a real change, stale source or not
    await setSource('2026-09-01');
    await pool.query(`UPDATE building_scores SET grade = 'A', total_score = 5, as_of = '2026-04-01' WHERE bbl = $1`, [bbl]);
    const recorded = randomUUID();
    await runScoring(pool, { runId: recorded, kind: 'full', asOf: AS_OF, writeCurrent: true });
    expect(await crossingsOf(recorded, bbl)).toEqual([{ previous_grade: 'A', current_grade: real.grade, quiet_reason: null }]);
    await setSource(AS_OF);
  });

  it('marks the grade changes of a new scorer version as a change of method', async () => {
    const bbl = '2000200001';
    await pool.query(`UPDATE building_scores SET grade = 'A', total_score = 5, as_of = '2026-04-01', scorer_id = 'distress_v10_1' WHERE bbl = $1`, [bbl]);
    const runId = randomUUID();
    await runScoring(pool, { runId, kind: 'full', asOf: AS_OF, writeCurrent: true });
    const { rows } = await pool.query<{ quiet_reason: string | null }>(`SELECT quiet_reason FROM grade_crossings WHERE run_id = $1 AND bbl = $2`, [runId, bbl]);
    expect(rows[0].quiet_reason).toBe('scorer-change');
  });
});
