import type { Client } from 'pg';
import { splitAttributes } from '@bhis/db';
import { BOROUGH_CITIES, BOROUGH_NAMES, BoroughCode, COMPONENT_KEYS, normalizeAddress } from '@bhis/domain';
import { GRADE_BANDS } from '@bhis/scoring';

export interface SeedBuilding {
  bbl: string;
  address: string;
  zipcode?: string;
  owner?: string | null;
  buildingClass?: string;
  units?: number;
  /** Omitted: the building is in the data set but not scored. */
  score?: number;
  runId?: string;
}

export function gradeOf(score: number): { grade: string; label: string } {
  const band = [...GRADE_BANDS].reverse().find((b) => score >= b.min_score) ?? GRADE_BANDS[0];
  return { grade: band.grade, label: band.label };
}

/** A document shaped like the scoring worker's (docs/interface-spec.md, 2.2), with values derived from the score. */
export function buildingDocument(b: SeedBuilding, borough: BoroughCode, score: number) {
  const { grade, label } = gradeOf(score);
  return {
    bbl: b.bbl,
    address: b.address.toUpperCase(),
    city: BOROUGH_CITIES[borough],
    zipcode: b.zipcode ?? '10001',
    borough,
    borough_name: BOROUGH_NAMES[borough],
    residential_units: b.units ?? 12,
    total_units: (b.units ?? 12) + 1,
    year_built: 1931,
    building_class: b.buildingClass ?? 'C1',
    owner_name: b.owner ?? null,
    latitude: 40.75,
    longitude: -73.98,
    scores: {
      total_score: score,
      health_score: 100 - score,
      grade,
      label,
      scorer_id: 'distress_v10_2',
      peer_group: 'walkup_prewar',
      data_quality: 'good',
      components: Object.fromEntries(COMPONENT_KEYS.map((key, i) => [key, { score: Math.min(100, score + i / 10), grade: gradeOf(Math.min(100, score + i / 10)).grade }])),
      flags: score >= 90 ? ['fdny-vacate-active'] : [],
    },
    counts: { hpd_violations_total: score, hpd_violations_open: Math.floor(score / 2), hpd_class_c_open: Math.floor(score / 10), dob_violations_total: 3, complaints_311: 7, permits: 1, total_events: score + 11 },
    confidence: { score: 0.81, tier: 'high', flags: [], dimensions: { coverage: 0.9, freshness: 0.8, corroboration: 0.7, precision: 0.8 }, interval: { low: 38, high: 47 }, reason: null, primary_sources: 5, active_families: 4 },
  };
}

export function explanationFor(score: number) {
  return {
    components: Object.fromEntries(
      COMPONENT_KEYS.map((key) => [key, [{ signal: `${key}_signal`, description: 'seeded', contribution: score / 10, count: 2, event_ids: ['1', '2'] }]]),
    ),
    adjustments: [],
  };
}

const RUN_ID = '00000000-0000-4000-8000-000000000001';

export async function seedBuildings(client: Client, buildings: readonly SeedBuilding[]): Promise<void> {
  for (const b of buildings) {
    const borough = Number(b.bbl[0]) as BoroughCode;
    await client.query(
      `INSERT INTO buildings (bbl, borough, block, lot, address, city, zipcode, residential_units, total_units, year_built,
                              building_class, owner_name, latitude, longitude, address_search)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 1931, $10, $11, 40.75, -73.98, $12)`,
      [b.bbl, borough, Number(b.bbl.slice(1, 6)), Number(b.bbl.slice(6)), b.address.toUpperCase(), BOROUGH_CITIES[borough], b.zipcode ?? '10001',
        b.units ?? 12, (b.units ?? 12) + 1, b.buildingClass ?? 'C1', b.owner ?? null, normalizeAddress(b.address)],
    );
    if (b.score === undefined) continue;
    const document = buildingDocument(b, borough, b.score);
    await client.query(
      `INSERT INTO building_scores (bbl, run_id, as_of, scorer_id, total_score, health_score, grade, label, components, flags,
                                    scores, counts, confidence, explanation, document)
       VALUES ($1, $2, '2026-11-20', 'distress_v10_2', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [b.bbl, b.runId ?? RUN_ID, b.score, 100 - b.score, document.scores.grade, document.scores.label, JSON.stringify(document.scores.components),
        document.scores.flags, JSON.stringify(document.scores), JSON.stringify(document.counts), JSON.stringify(document.confidence),
        JSON.stringify(explanationFor(b.score)), JSON.stringify(document)],
    );
  }
}

/** Rewrites a building's score row as a new scoring run would (new run id, new document). */
export async function rescore(client: Client, bbl: string, score: number): Promise<void> {
  await client.query(
    `UPDATE building_scores SET total_score = $2::int, run_id = gen_random_uuid(), updated_at = now(),
            document = jsonb_set(document::jsonb, '{scores,total_score}', to_jsonb($2::int))::json WHERE bbl = $1`,
    [bbl, score],
  );
}

const SEED_SOURCES = ['hpd_violations', 'hpd_complaints', 'dob_violations', 'nyc311', 'dob_job_filings'] as const;
const SEED_CATEGORIES = ['water_damage', 'mold', 'heat_hot_water', 'pests', 'permit'] as const;
const SEED_SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;

/**
 * `count` events: source, category and severity cycle with the index; dates step back one day every
 * third event (so dates repeat and the id breaks ties); every 10th event has no date.
 */
export async function seedEvents(client: Client, bbl: string, count: number): Promise<void> {
  await client.query(
    `INSERT INTO events (bbl, source, source_record_id, event_type, category, severity, status, occurred_on, closed_on,
                         description, attributes, row_hash)
     SELECT $1, ($2::event_source[])[1 + i % 5], 'rec-' || i, 'hpd_violation', ($3::event_category[])[1 + (i / 5) % 5],
            ($4::event_severity[])[1 + (i / 25) % 5], (CASE WHEN i % 2 = 0 THEN 'open' ELSE 'closed' END)::event_status,
            CASE WHEN i % 10 = 9 THEN NULL ELSE DATE '2025-12-31' - (i / 3) END,
            NULL, 'seeded event ' || i,
            jsonb_build_object('building_id', 800000 + i % 3, 'n', i), md5(i::text)
       FROM generate_series(0, $5::int - 1) AS i`,
    [bbl, SEED_SOURCES, SEED_CATEGORIES, SEED_SEVERITIES, count],
  );
  await compactHalf(client, bbl);
}

/**
 * Every other event as ingest stores it (attributes SQL does not read and the description in the
 * compact record), the others as rows written before the compact record: the API renders both alike.
 */
async function compactHalf(client: Client, bbl: string): Promise<void> {
  const { rows } = await client.query<{ id: string; source: string; attributes: Record<string, unknown>; description: string | null }>(
    `SELECT id, source, attributes, description FROM events WHERE bbl = $1 AND id % 2 = 0`,
    [bbl],
  );
  const split = rows.map((r) => splitAttributes(r.source, r.attributes, r.description));
  await client.query(
    `UPDATE events e SET attributes = c.attributes, record = c.record, description = NULL
       FROM unnest($2::bigint[], $3::jsonb[], $4::bytea[]) AS c(id, attributes, record)
      WHERE e.bbl = $1 AND e.id = c.id`,
    [bbl, rows.map((r) => r.id), split.map((s) => JSON.stringify(s.sql)), split.map((s) => s.record)],
  );
}

export async function seedHistory(client: Client, bbl: string, points: number): Promise<void> {
  await client.query(
    `INSERT INTO score_history (bbl, as_of, scorer_id, run_id, total_score, health_score, grade, components)
     SELECT $1, DATE '2025-01-01' + (i / 2) * 7, CASE WHEN i % 2 = 0 THEN 'distress_v10_1' ELSE 'distress_v10_2' END,
            gen_random_uuid(), 40 + i % 20, 60 - i % 20, 'C', jsonb_build_object('living_conditions', 41.5, 'building_safety', 12.0)
       FROM generate_series(0, $2::int - 1) AS i`,
    [bbl, points],
  );
}
