import type { Pool } from 'pg';
import { COMPONENT_KEYS } from '@bhis/domain';

export interface SeedBuilding {
  bbl: string;
  address?: string;
  zipcode?: string;
  units?: number;
  owner?: string | null;
  buildingClass?: string;
  /** Without a score the building exists but is not scored. */
  score?: { total: number; grade: string; flags?: string[]; label?: string };
}

/** Inserts buildings and their current scores; component scores are total/2, counts fixed, confidence 0.8/high. */
export async function seedBuildings(pool: Pool, buildings: SeedBuilding[]): Promise<void> {
  for (const b of buildings) {
    await pool.query(
      `INSERT INTO buildings (bbl, borough, block, lot, address, address_search, zipcode, residential_units, owner_name, building_class)
       VALUES ($1::text, substr($1::text, 1, 1)::int, substr($1::text, 2, 5)::int, substr($1::text, 7, 4)::int, $2, $2, $3, $4, $5, $6)`,
      [b.bbl, b.address ?? `${Number(b.bbl.slice(6))} TEST STREET`, b.zipcode ?? '10001', b.units ?? 0, b.owner ?? null, b.buildingClass ?? 'C1'],
    );
    const score = b.score;
    if (!score) continue;
    const components = Object.fromEntries(COMPONENT_KEYS.map((k) => [k, { score: score.total / 2, grade: score.grade }]));
    const counts = {
      hpd_violations_total: 10,
      hpd_violations_open: 4,
      hpd_class_c_open: 1,
      dob_violations_total: 3,
      complaints_311: 7,
      permits: 2,
      total_events: 27,
    };
    await pool.query(
      `INSERT INTO building_scores (bbl, run_id, as_of, scorer_id, total_score, health_score, grade, label, components, flags, scores, counts, confidence)
       VALUES ($1, gen_random_uuid(), '2026-11-20', 'distress_v10_2', $2::int, 100 - $2::int, $3, $4, $5, $6, '{}', $7, $8)`,
      [b.bbl, score.total, score.grade, score.label ?? `label ${score.grade}`, components, score.flags ?? [], counts, { score: 0.8, tier: 'high', flags: [] }],
    );
  }
}
