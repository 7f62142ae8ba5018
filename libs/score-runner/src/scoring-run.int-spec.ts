import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { COMPONENT_KEYS, SCORER_ID } from '@bhis/domain';
import { buildPeerDistribution, healthScoreFromDistribution, KNOWN_LIMIT_RULES } from '@bhis/scoring';
import { createTestDatabase, TestDatabase } from '@bhis/testing';
import { runScoring } from './scoring-run';

const AS_OF = '2026-11-01';
const BAD = '2000010001';
const CLEAN = '2000010002';

async function seedBuilding(pool: Pool, bbl: string, units: number, extra: { registrationEnd?: string } = {}) {
  await pool.query(
    `INSERT INTO buildings (bbl, borough, block, lot, address, city, zipcode, residential_units, total_units, year_built,
                            building_class, num_buildings, in_hpd_jurisdiction, hpd_legal_units, registration_end_date, owner_name)
     VALUES ($1, 2, $2, $3, $4, 'BRONX', '10457', $5, $5, 1925, 'C4', 1, true, $5, $6, 'OWNER LLC')`,
    [bbl, Number(bbl.slice(1, 6)), Number(bbl.slice(6)), `${bbl.slice(6)} TEST AVENUE`, units, extra.registrationEnd ?? '2027-09-01'],
  );
}

async function seedEvents(pool: Pool, bbl: string, rows: { type: string; source: string; category: string; severity: string; status: string; on: string; attrs?: object }[]) {
  for (const [i, e] of rows.entries()) {
    await pool.query(
      `INSERT INTO events (bbl, source, source_record_id, event_type, category, severity, status, occurred_on, attributes, row_hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'x')`,
      [bbl, e.source, `${bbl}-${e.type}-${i}-${randomUUID().slice(0, 6)}`, e.type, e.category, e.severity, e.status, e.on, e.attrs ?? {}],
    );
  }
}

function violations(n: number, severity: 'critical' | 'high', status: string, on: string, category = 'habitability') {
  return Array.from({ length: n }, () => ({ type: 'hpd_violation', source: 'hpd_violations', category, severity, status, on }));
}

describe('scoring runs (real Postgres)', () => {
  let db: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 6 });
    await pool.query(`INSERT INTO sources (key, name, agency, cadence, last_refreshed_at, latest_record_date, status)
                      VALUES ('hpd_violations', 'HPD violations', 'HPD', 'daily', '2026-10-31', '2026-10-30', 'ok'),
                             ('hpd_emergency_repairs', 'HPD emergency repairs', 'HPD', 'daily', '2026-10-31', '2026-10-30', 'ok'),
                             ('nyc311', '311', 'DOITT', 'daily', '2026-10-31', '2026-10-30', 'ok')`);
    // a building meeting the AEP selection criteria: 30 units, 3+ open B/C violations per unit, $2,500+ of emergency repairs
    await seedBuilding(pool, BAD, 30);
    await seedEvents(pool, BAD, [
      ...violations(40, 'critical', 'open', '2026-06-01'),
      ...violations(60, 'high', 'open', '2025-09-01', 'water_damage'),
      ...Array.from({ length: 4 }, () => ({ type: 'emergency_repair_omo', source: 'hpd_emergency_repairs', category: 'emergency_repair', severity: 'high', status: 'closed', on: '2026-03-01', attrs: { amount: 1500 } })),
      ...Array.from({ length: 12 }, () => ({ type: 'complaint_311', source: 'nyc311', category: 'heat_hot_water', severity: 'medium', status: 'closed', on: '2026-01-15' })),
    ]);
    await seedBuilding(pool, CLEAN, 30);
    await seedEvents(pool, CLEAN, violations(3, 'high', 'closed', '2019-05-01'));
    for (let i = 3; i < 43; i++) {
      const bbl = `20000100${String(i).padStart(2, '0')}`;
      await seedBuilding(pool, bbl, 30);
      await seedEvents(pool, bbl, violations(i % 5, 'high', i % 3 ? 'closed' : 'open', '2024-02-01'));
    }
  });

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  it('scores every building, with a servable document, counts and a history point', async () => {
    const runId = randomUUID();
    const counts = await runScoring(pool, { runId, kind: 'full', asOf: AS_OF, writeCurrent: true, chunkSize: 7 });
    expect(counts.buildings).toBe(42);
    expect(counts.failed).toBe(0);

    const { rows } = await pool.query(`SELECT bbl, grade, total_score, health_score, document::text AS doc, run_id FROM building_scores ORDER BY bbl`);
    expect(rows).toHaveLength(42);
    const bad = rows.find((r) => r.bbl === BAD);
    const clean = rows.find((r) => r.bbl === CLEAN);
    expect(['D', 'F']).toContain(bad.grade);
    expect(['D', 'F']).not.toContain(clean.grade);
    expect(clean.health_score).toBeGreaterThan(bad.health_score);

    const doc = JSON.parse(bad.doc);
    expect(Object.keys(doc)).toEqual([
      'bbl', 'address', 'city', 'zipcode', 'borough', 'borough_name', 'residential_units', 'total_units', 'year_built',
      'building_class', 'owner_name', 'latitude', 'longitude', 'scores', 'counts', 'confidence', 'published_rules',
    ]);
    expect(doc.borough).toBe(2);
    expect(doc.borough_name).toBe('Bronx');
    expect(doc.scores.health_score).toBe(bad.health_score);
    expect(doc.scores.scorer_id).toBe(SCORER_ID);
    const stored = await pool.query(`SELECT count(*)::int AS n FROM building_scores WHERE scores <> (document::jsonb -> 'scores')`);
    expect(stored.rows[0].n).toBe(0);
    expect(Object.keys(doc.scores.components).sort()).toEqual([...COMPONENT_KEYS].sort());
    expect(doc.counts).toEqual({
      hpd_violations_total: 100, hpd_violations_open: 100, hpd_class_c_open: 40, dob_violations_total: 0,
      complaints_311: 12, permits: 0, total_events: 116,
    });
    expect(doc.scores.flags).toContain('open-class-c');
    expect(doc.confidence.dimensions).toEqual({ coverage: expect.any(Number), freshness: expect.any(Number), corroboration: expect.any(Number), precision: expect.any(Number) });
    expect(doc.confidence.interval).toEqual({ low: expect.any(Number), high: expect.any(Number) });

    const history = await pool.query(`SELECT count(*)::int AS n FROM score_history WHERE run_id = $1`, [runId]);
    expect(history.rows[0].n).toBe(42);
    const staging = await pool.query(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename ~ '^scoring_(stg|health)_'`);
    expect(staging.rows[0].n).toBe(0);
  });

  it('fails a run whose read of a later chunk fails, with its error, and leaves no staging table', async () => {
    // the third chunk's facts fail while the chunks before it are read ahead and scored
    let factReads = 0;
    const failing = new Proxy(pool, {
      get(target, property) {
        if (property === 'query') {
          return (config: unknown, values?: unknown[]) => {
            if ((config as { name?: string }).name === 'score_facts' && ++factReads === 3) return Promise.reject(new Error('read of chunk 3 failed'));
            return target.query(config as string, values);
          };
        }
        const value: unknown = Reflect.get(target, property);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    await expect(runScoring(failing, { runId: randomUUID(), kind: 'full', asOf: AS_OF, writeCurrent: true, chunkSize: 7 })).rejects.toThrow('read of chunk 3 failed');
    const staging = await pool.query(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename ~ '^scoring_(stg|health)_'`);
    expect(staging.rows[0].n).toBe(0);
  });

  it('keeps serving the previous run until the new one commits, then records grade crossings', async () => {
    const before = await pool.query(`SELECT run_id, grade FROM building_scores WHERE bbl = $1`, [CLEAN]);
    await seedEvents(pool, CLEAN, [
      ...violations(45, 'critical', 'open', '2026-09-01'),
      ...Array.from({ length: 3 }, () => ({ type: 'emergency_repair_omo', source: 'hpd_emergency_repairs', category: 'emergency_repair', severity: 'high', status: 'closed', on: '2026-08-01', attrs: { amount: 2000 } })),
    ]);
    await pool.query(`INSERT INTO dirty_buildings (bbl) VALUES ($1)`, [CLEAN]);
    const runId = randomUUID();
    const seen: string[] = [];
    const counts = await runScoring(pool, {
      runId,
      kind: 'incremental',
      asOf: AS_OF,
      writeCurrent: true,
      onProgress: () => void pool.query(`SELECT run_id FROM building_scores WHERE bbl = $1`, [CLEAN]).then((r) => seen.push(r.rows[0].run_id)),
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(counts.buildings).toBe(1);
    expect(seen.every((id) => id === before.rows[0].run_id)).toBe(true);

    const after = await pool.query(`SELECT run_id, grade FROM building_scores WHERE bbl = $1`, [CLEAN]);
    expect(after.rows[0].run_id).toBe(runId);
    expect(after.rows[0].grade).not.toBe(before.rows[0].grade);
    const crossing = await pool.query(`SELECT previous_grade, current_grade FROM grade_crossings WHERE run_id = $1`, [runId]);
    expect(crossing.rows).toEqual([{ previous_grade: before.rows[0].grade, current_grade: after.rows[0].grade }]);
    expect(counts.crossings).toBe(1);
    const dirty = await pool.query(`SELECT count(*)::int AS n FROM dirty_buildings`);
    expect(dirty.rows[0].n).toBe(0);

    // its health score is ranked against every current score of its peers, the 41 it did not rescore too
    const { rows } = await pool.query<{ bbl: string; peer_group: string; total_score: number; health_score: number; flags: string[] }>(
      `SELECT bbl, peer_group, total_score, health_score, flags FROM building_scores ORDER BY bbl`,
    );
    const totals: Record<string, number[]> = {};
    for (const r of rows) if (!r.flags.some((f) => KNOWN_LIMIT_RULES.some((rule) => rule.key === f))) (totals[r.peer_group] ??= []).push(r.total_score);
    const rescored = rows.find((r) => r.bbl === CLEAN)!;
    expect(rescored.health_score).toBe(healthScoreFromDistribution(buildPeerDistribution(totals), rescored.peer_group, rescored.total_score));
    const scores = await pool.query(`SELECT scores, document::jsonb -> 'scores' AS from_document FROM building_scores WHERE bbl = $1`, [CLEAN]);
    expect(scores.rows[0].scores).toEqual(scores.rows[0].from_document);
  });

  it('backfills history as of past dates without touching current scores', async () => {
    const current = await pool.query(`SELECT bbl, run_id FROM building_scores ORDER BY bbl`);
    const runId = randomUUID();
    await runScoring(pool, { runId, kind: 'full', asOf: '2025-11-01', writeCurrent: false });
    const after = await pool.query(`SELECT bbl, run_id FROM building_scores ORDER BY bbl`);
    expect(after.rows).toEqual(current.rows);
    const history = await pool.query(`SELECT to_char(as_of, 'YYYY-MM-DD') AS as_of, total_score FROM score_history WHERE bbl = $1 ORDER BY as_of`, [CLEAN]);
    expect(history.rows.map((r) => r.as_of)).toEqual(['2025-11-01', AS_OF]);
    const crossings = await pool.query(`SELECT count(*)::int AS n FROM grade_crossings WHERE run_id = $1`, [runId]);
    expect(crossings.rows[0].n).toBe(0);
  });
});
