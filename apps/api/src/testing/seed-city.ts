import { Client } from 'pg';
import { BOROUGH_CITIES, BOROUGH_NAMES, BoroughCode, COMPONENT_KEYS, normalizeAddress } from '@bhis/domain';
import { GRADE_BANDS } from '@bhis/scoring';

/** A scored building of the seeded city, with what its report shows. */
export interface SeededBuilding {
  bbl: string;
  address: string;
  units: number;
  owner: string;
  score: number;
  /** Component scores in COMPONENT_KEYS order. */
  components: number[];
  /** Score history, oldest first. */
  history: { as_of: string; score: number }[];
  events: number;
}

export const SEEDED_CITY: SeededBuilding[] = [
  {
    bbl: '1010150001', address: '123 WEST 45 STREET', units: 48, owner: 'WEST 45 REALTY LLC', score: 71,
    components: [82.4, 35.1, 77.9, 64.0, 12.5, 58.3, 40.2],
    history: [{ as_of: '2025-11-20', score: 38 }, { as_of: '2026-02-20', score: 49 }, { as_of: '2026-05-20', score: 57 }, { as_of: '2026-08-20', score: 66 }, { as_of: '2026-11-20', score: 71 }],
    events: 30,
  },
  {
    bbl: '1010150002', address: '125 WEST 45 STREET', units: 12, owner: 'TIMES SQ HOLDINGS', score: 18,
    components: [15.2, 8.0, 22.4, 11.3, 4.1, 19.0, 6.6],
    history: [{ as_of: '2026-05-20', score: 20 }, { as_of: '2026-11-20', score: 18 }],
    events: 5,
  },
  {
    bbl: '3012340056', address: '450 OCEAN AVENUE', units: 96, owner: 'OCEAN AVE ASSOCIATES', score: 47,
    components: [50.5, 30.0, 61.2, 44.8, 9.9, 47.7, 20.3],
    history: [{ as_of: '2026-11-20', score: 47 }],
    events: 12,
  },
];

function gradeOf(score: number): { grade: string; label: string } {
  const band = [...GRADE_BANDS].reverse().find((b) => score >= b.min_score) ?? GRADE_BANDS[0];
  return { grade: band.grade, label: band.label };
}

function document(b: SeededBuilding) {
  const borough = Number(b.bbl[0]) as BoroughCode;
  const { grade, label } = gradeOf(b.score);
  const components = Object.fromEntries(COMPONENT_KEYS.map((key, i) => [key, { score: b.components[i], grade: gradeOf(b.components[i]).grade }]));
  return {
    bbl: b.bbl, address: b.address, city: BOROUGH_CITIES[borough], zipcode: '10036', borough, borough_name: BOROUGH_NAMES[borough],
    residential_units: b.units, total_units: b.units + 2, year_built: 1927, building_class: 'D7', owner_name: b.owner, latitude: 40.7577, longitude: -73.9857,
    scores: {
      total_score: b.score, health_score: 100 - b.score, grade, label, scorer_id: 'distress_v10_2', peer_group: 'large_prewar', data_quality: 'good',
      components, flags: b.score >= 65 ? ['hpd-aep-active'] : [],
    },
    counts: { hpd_violations_total: b.score * 3, hpd_violations_open: b.score, hpd_class_c_open: Math.floor(b.score / 7), dob_violations_total: 9, complaints_311: 41, permits: 3, total_events: b.events },
    confidence: { score: 0.84, tier: 'high', flags: [], dimensions: { coverage: 0.92, freshness: 0.81, corroboration: 0.74, precision: 0.8 }, interval: { low: 40, high: 49 }, reason: null, primary_sources: 6, active_families: 4 },
  };
}

const RUN_ID = '00000000-0000-4000-8000-0000000000aa';
const SOURCES = ['hpd_violations', 'hpd_complaints', 'dob_violations', 'nyc311'] as const;
const CATEGORIES = ['water_damage', 'mold', 'heat_hot_water', 'pests'] as const;

/** Writes the seeded city as the scoring worker would leave it: buildings, current scores, history and events. */
export async function seedCity(databaseUrl: string, buildings: readonly SeededBuilding[] = SEEDED_CITY): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (const b of buildings) {
      const borough = Number(b.bbl[0]) as BoroughCode;
      const doc = document(b);
      await client.query(
        `INSERT INTO buildings (bbl, borough, block, lot, address, city, zipcode, residential_units, total_units, year_built,
                                building_class, owner_name, latitude, longitude, address_search)
         VALUES ($1, $2, $3, $4, $5, $6, '10036', $7, $8, 1927, 'D7', $9, 40.7577, -73.9857, $10)`,
        [b.bbl, borough, Number(b.bbl.slice(1, 6)), Number(b.bbl.slice(6)), b.address, BOROUGH_CITIES[borough], b.units, b.units + 2, b.owner, normalizeAddress(b.address)],
      );
      await client.query(
        `INSERT INTO building_scores (bbl, run_id, as_of, scorer_id, total_score, health_score, grade, label, components, flags,
                                      scores, counts, confidence, explanation, document)
         VALUES ($1, $2, '2026-11-20', 'distress_v10_2', $3, $4, $5, $6, $7, $8, $9, $10, $11, '{"components":{},"adjustments":[]}', $12)`,
        [b.bbl, RUN_ID, b.score, 100 - b.score, doc.scores.grade, doc.scores.label, JSON.stringify(doc.scores.components), doc.scores.flags,
          JSON.stringify(doc.scores), JSON.stringify(doc.counts), JSON.stringify(doc.confidence), JSON.stringify(doc)],
      );
      for (const point of b.history) {
        await client.query(
          `INSERT INTO score_history (bbl, as_of, scorer_id, run_id, total_score, health_score, grade, components)
           VALUES ($1, $2, 'distress_v10_2', gen_random_uuid(), $3, $4, $5, $6)`,
          [b.bbl, point.as_of, point.score, 100 - point.score, gradeOf(point.score).grade, JSON.stringify({ living_conditions: point.score })],
        );
      }
      await client.query(
        `INSERT INTO events (bbl, source, source_record_id, event_type, category, severity, status, occurred_on, closed_on,
                             description, attributes, row_hash)
         SELECT $1::text, ($2::event_source[])[1 + i % 4], 'rec-' || $1::text || '-' || i, 'hpd_violation', ($3::event_category[])[1 + i % 4],
                (CASE WHEN i % 3 = 0 THEN 'high' ELSE 'medium' END)::event_severity,
                (CASE WHEN i % 2 = 0 THEN 'open' ELSE 'closed' END)::event_status,
                DATE '2026-11-15' - i * 9, NULL, 'Seeded record ' || i || ': water leak at ceiling, apartment ' || (i + 1) || 'B',
                jsonb_build_object('building_id', 800100), md5($1::text || i::text)
           FROM generate_series(0, $4::int - 1) AS i`,
        [b.bbl, SOURCES, CATEGORIES, b.events],
      );
    }
  } finally {
    await client.end();
  }
}
