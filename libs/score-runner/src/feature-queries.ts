import type { Pool, QueryResult } from 'pg';
import { inTransaction } from '@bhis/db';
import { ageBucketSql, type DocumentFacts, heatSeasonWindow } from '@bhis/scoring';

/** Money amount of an event in dollars: emergency repair charges, ECB balance due, litigation penalty. */
const AMOUNT = `COALESCE(
  CASE WHEN jsonb_typeof(e.attributes -> 'amount') = 'number' THEN (e.attributes ->> 'amount')::numeric END,
  CASE WHEN jsonb_typeof(e.attributes -> 'balance_due') = 'number' THEN (e.attributes ->> 'balance_due')::numeric END,
  CASE WHEN jsonb_typeof(e.attributes -> 'penalty') = 'number' THEN (e.attributes ->> 'penalty')::numeric END,
  0)`;

/**
 * The event histogram of a chunk of buildings as of a date: events after the date are not seen, and
 * an event closed after the date was still open on it.
 */
const HISTOGRAM_SQL = `
  SELECT e.bbl, e.source, e.event_type, e.category, e.severity,
         (e.status IN ('open', 'active') OR (e.closed_on IS NOT NULL AND e.closed_on > $2::date AND e.status NOT IN ('open', 'active'))) AS open,
         e.scoring_excluded,
         ${ageBucketSql('e.occurred_on', '$2::date')} AS age_bucket,
         count(*)::int AS count,
         sum(${AMOUNT})::float8 AS amount,
         (array_agg(e.id::text ORDER BY e.occurred_on DESC NULLS LAST, e.id DESC))[1:3] AS newest_event_ids,
         to_char(max(e.occurred_on), 'YYYY-MM-DD') AS newest_occurred_on
    FROM events e
   WHERE e.bbl = ANY($1::char(10)[]) AND (e.occurred_on IS NULL OR e.occurred_on <= $2::date)
   GROUP BY 1, 2, 3, 4, 5, 6, 7, 8`;

export interface HistogramSqlRow {
  bbl: string;
  source: string;
  event_type: string;
  category: string;
  severity: string;
  open: boolean;
  scoring_excluded: boolean;
  age_bucket: string;
  count: number;
  amount: number | null;
  newest_event_ids: string[];
  newest_occurred_on: string | null;
}

/** A building's facts as scoring reads them: the document's facts and what the model needs besides. */
export interface FactsSqlRow extends DocumentFacts {
  num_buildings: number | null;
  in_hpd_jurisdiction: boolean;
  hpd_legal_units: number | null;
  registration_end_date: string | null;
  management_program: string | null;
}

export interface ChunkFeatures {
  facts: FactsSqlRow[];
  histogram: HistogramSqlRow[];
  heatSeason: Map<string, number>;
}

/**
 * The planner settings of a chunk's histogram read. The planner cannot tell how many of a chunk's
 * BBLs fall in each hash partition: it counts all of them in every partition, 16 times the rows there
 * are, and then plans a parallel scan of every partition (or a bitmap scan, with JIT compilation) for
 * what the timeline index serves in BBL order. On the whole city a chunk of 2,000 buildings of Queens
 * took 70 s as a sequential scan and 1.5 s read by the index (docs/benchmarks.md).
 */
const HISTOGRAM_PLAN = ['SET LOCAL enable_seqscan = off', 'SET LOCAL enable_bitmapscan = off', 'SET LOCAL max_parallel_workers_per_gather = 0', 'SET LOCAL jit = off'];

async function readHistogram(pool: Pool, bbls: string[], asOf: string): Promise<QueryResult<HistogramSqlRow>> {
  return inTransaction(pool, async (client) => {
    for (const setting of HISTOGRAM_PLAN) await client.query(setting);
    return client.query<HistogramSqlRow>({ name: 'score_histogram', text: HISTOGRAM_SQL, values: [bbls, asOf] });
  });
}

/** Reads the facts, the histogram and the heat-season complaints of a chunk: three set-based queries. */
export async function readChunk(pool: Pool, bbls: string[], asOf: string): Promise<ChunkFeatures> {
  const heat = heatSeasonWindow(asOf);
  const [facts, histogram, heatRows] = await Promise.all([
    pool.query<FactsSqlRow>({
      name: 'score_facts',
      text: `SELECT bbl, borough, address, city, zipcode, residential_units, total_units, year_built, building_class, owner_name,
                    latitude, longitude, num_buildings, in_hpd_jurisdiction, hpd_legal_units, management_program,
                    to_char(registration_end_date, 'YYYY-MM-DD') AS registration_end_date
               FROM buildings WHERE bbl = ANY($1::char(10)[]) ORDER BY bbl`,
      values: [bbls],
    }),
    readHistogram(pool, bbls, asOf),
    pool.query<{ bbl: string; n: number }>({
      name: 'score_heat_season',
      text: `SELECT bbl, count(*)::int AS n FROM events
              WHERE bbl = ANY($1::char(10)[]) AND event_type IN ('hpd_complaint', 'complaint_311')
                AND category = 'heat_hot_water' AND NOT scoring_excluded AND occurred_on BETWEEN $2::date AND $3::date
              GROUP BY bbl`,
      values: [bbls, heat.start, heat.end],
    }),
  ]);
  return { facts: facts.rows, histogram: histogram.rows, heatSeason: new Map(heatRows.rows.map((r) => [r.bbl, r.n])) };
}

/** Records of conditions found by an inspector or an agency (not reports by tenants), as counted by the propensity. */
const CONDITION_TYPES = ['hpd_violation', 'dob_violation', 'ecb_violation', 'dob_safety_violation', 'emergency_repair_omo', 'emergency_repair_hwo', 'hpd_vacate_order', 'dob_vacate_order'];
/** Condition records of city-wide reporting with which a ZIP code's own ratio is blended (shrinkage). */
export const PROPENSITY_SHRINK_CONDITIONS = 200;

export interface AreaReporting {
  zipcode: string;
  complaints: number;
  conditions: number;
}

/**
 * Reporting propensity by ZIP code: housing complaints per recorded condition (violations, orders,
 * emergency repairs) over the last year, relative to the city's ratio, shrunk toward 1 where there are
 * few conditions on record. Low-income neighbourhoods under-report: fewer complaints per actual problem
 * (Kontokosta, Hong and Korsberg 2017), so their ratio is below 1 and, since complaint measures are
 * divided by it, each of their complaints weighs more. A rate of complaints per unit would run the other
 * way (distressed areas complain more in total and would be discounted for it).
 */
export function reportingPropensity(rows: readonly AreaReporting[]): Map<string, number> {
  const complaints = rows.reduce((s, r) => s + r.complaints, 0);
  const conditions = rows.reduce((s, r) => s + r.conditions, 0);
  const out = new Map<string, number>();
  if (complaints <= 0 || conditions <= 0) return out;
  const city = complaints / conditions;
  for (const r of rows) {
    out.set(r.zipcode, (r.complaints + PROPENSITY_SHRINK_CONDITIONS * city) / (r.conditions + PROPENSITY_SHRINK_CONDITIONS) / city);
  }
  return out;
}

/** Housing complaints, as counted by the propensity. */
const COMPLAINT_TYPES = ['hpd_complaint', 'complaint_311'];

const sqlList = (types: readonly string[]) => types.map((t) => `'${t}'`).join(', ');

/**
 * The last year's complaints and conditions by ZIP code. The types are written out: the partial index
 * `events_area_reporting_idx` (migration 1763702900000) holds exactly these events, and the planner
 * uses it only for a query whose conditions imply its own. A type added here needs that index changed.
 */
export const AREA_REPORTING_SQL = `
  SELECT b.zipcode,
         count(*) FILTER (WHERE e.event_type IN (${sqlList(COMPLAINT_TYPES)}))::float8 AS complaints,
         count(*) FILTER (WHERE e.event_type IN (${sqlList(CONDITION_TYPES)}))::float8 AS conditions
    FROM events e JOIN buildings b ON b.bbl = e.bbl
   WHERE b.zipcode IS NOT NULL AND NOT e.scoring_excluded
     AND e.event_type IN (${sqlList([...COMPLAINT_TYPES, ...CONDITION_TYPES])})
     AND e.occurred_on > ($1::date - interval '1 year') AND e.occurred_on <= $1::date
   GROUP BY b.zipcode`;

export async function areaComplaintPropensity(pool: Pool, asOf: string): Promise<Map<string, number>> {
  const { rows } = await pool.query<AreaReporting>(AREA_REPORTING_SQL, [asOf]);
  return reportingPropensity(rows);
}
