import type { Pool } from 'pg';
import { BOROUGH_NAMES, COMPONENT_KEYS } from '@bhis/domain';

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

/** Every component at `score` and `grade`, as a score row holds them. */
export function seedComponents(score: number, grade: string): Record<string, { score: number; grade: string }> {
  return Object.fromEntries(COMPONENT_KEYS.map((k) => [k, { score, grade }]));
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
      [b.bbl, score.total, score.grade, score.label ?? `label ${score.grade}`, seedComponents(score.total / 2, score.grade), score.flags ?? [], counts,
        { score: 0.8, tier: 'high', flags: [] }],
    );
  }
  await writeDocuments(pool);
}

/**
 * Writes the building document of every score row, in the field order of the scoring worker's
 * (docs/interface-spec.md, 2.2), from its building and its score columns: the CSV export reads it.
 */
export async function writeDocuments(pool: Pool): Promise<void> {
  await pool.query(
    `UPDATE building_scores s SET document = json_build_object(
        'bbl', b.bbl::text, 'address', b.address, 'city', b.city, 'zipcode', b.zipcode, 'borough', b.borough,
        'borough_name', ($1::text[])[b.borough], 'residential_units', b.residential_units, 'total_units', b.total_units,
        'year_built', b.year_built, 'building_class', b.building_class, 'owner_name', b.owner_name,
        'latitude', b.latitude, 'longitude', b.longitude,
        'scores', json_build_object('total_score', s.total_score, 'health_score', s.health_score, 'grade', s.grade::text,
          'label', s.label, 'scorer_id', s.scorer_id, 'peer_group', s.peer_group, 'data_quality', 'good',
          'components', s.components, 'flags', s.flags),
        'counts', s.counts, 'confidence', s.confidence, 'published_rules', '{}'::json)
       FROM buildings b WHERE b.bbl = s.bbl`,
    [Object.values(BOROUGH_NAMES)],
  );
}
