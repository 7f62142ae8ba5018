import type { Pool } from 'pg';
import { ageBucketSql, type DocumentFacts, heatSeasonWindow } from '@bhis/scoring';
import { AMOUNT_SQL, cellText, eventsInTimelineOrder, letter, NEWEST_IDS_SQL, planTimelineRead, readSettled, SettledGroupSqlRow, storeCountedSettled } from './settled-histories';
import type { HistogramSqlRow } from './histogram-row';

export type { HistogramSqlRow } from './histogram-row';

/**
 * The event histogram of a chunk of buildings `$1` as of `$2`: events after the date are not seen,
 * and an event closed after the date was still open on it. `from`: only the events dated on or after
 * `$3` (those of a settled history are read from its summary, settled-histories.ts). A cell's seven
 * values come as one text (`cellText`): the scoring process parses each distinct one once
 * (building-input.ts), where seven columns took ~1.6 times the CPU to receive (docs/scaling.md, Scoring).
 */
function histogramSql(from: 'all' | 'horizon'): string {
  const dated = from === 'all' ? `(occurred_on IS NULL OR occurred_on <= $2::date)` : `occurred_on >= $3::date AND occurred_on <= $2::date`;
  const open = `(e.status IN ('open', 'active') OR (e.closed_on IS NOT NULL AND e.closed_on > $2::date AND e.status NOT IN ('open', 'active')))`;
  return `
  SELECT e.bbl,
         ${cellText(['e.source', 'e.event_type', 'e.category', 'e.severity', letter(open), letter('e.scoring_excluded'), ageBucketSql('e.occurred_on', '$2::date')])} AS cell,
         count(*)::int AS count,
         NULLIF(sum(${AMOUNT_SQL}), 0)::float8 AS amount,
         ${NEWEST_IDS_SQL} AS newest_event_ids,
         to_char(max(e.occurred_on), 'YYYY-MM-DD') AS newest_occurred_on
    FROM ${eventsInTimelineOrder(dated)}
   GROUP BY 1, 2`;
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
  /** the histogram read from the events: all of them, or those after the horizon of `settled` */
  histogram: HistogramSqlRow[];
  /** the settled groups of the chunk's buildings, when the run reads settled histories */
  settled: SettledGroupSqlRow[];
  heatSeason: Map<string, number>;
}

/**
 * A chunk's histogram in one snapshot (REPEATABLE READ): with `horizon`, the settled groups (stored, or
 * counted now and kept after the read) and the events after the horizon; without, all the events.
 */
async function readHistogram(pool: Pool, bbls: string[], asOf: string, horizon: string | null): Promise<{ histogram: HistogramSqlRow[]; settled: SettledGroupSqlRow[] }> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    let read: { histogram: HistogramSqlRow[]; settled: SettledGroupSqlRow[]; counted: number };
    try {
      await planTimelineRead(client);
      const settled = horizon === null ? { rows: [], counted: 0 } : await readSettled(client, bbls, horizon);
      const histogram = await client.query<HistogramSqlRow>(
        horizon === null
          ? { name: 'score_histogram', text: histogramSql('all'), values: [bbls, asOf] }
          : { name: 'score_histogram_after_horizon', text: histogramSql('horizon'), values: [bbls, asOf, horizon] },
      );
      await client.query('COMMIT');
      read = { histogram: histogram.rows, settled: settled.rows, counted: settled.counted };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    if (horizon !== null && read.counted > 0) await storeCountedSettled(client, horizon);
    return read;
  } finally {
    client.release();
  }
}

/** Reads the facts, the histogram and the heat-season complaints of a chunk: set-based queries. */
export async function readChunk(pool: Pool, bbls: string[], asOf: string, horizon: string | null = null): Promise<ChunkFeatures> {
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
    readHistogram(pool, bbls, asOf, horizon),
    pool.query<{ bbl: string; n: number }>({
      name: 'score_heat_season',
      text: `SELECT bbl, count(*)::int AS n FROM events
              WHERE bbl = ANY($1::char(10)[]) AND event_type IN ('hpd_complaint', 'complaint_311')
                AND category = 'heat_hot_water' AND NOT scoring_excluded AND occurred_on BETWEEN $2::date AND $3::date
              GROUP BY bbl`,
      values: [bbls, heat.start, heat.end],
    }),
  ]);
  return { facts: facts.rows, ...histogram, heatSeason: new Map(heatRows.rows.map((r) => [r.bbl, r.n])) };
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

/** The month whose propensity a run as of `asOf` uses: the first day of the as-of's month (YYYY-MM-DD). */
export function propensityMonth(asOf: string): string {
  return `${asOf.slice(0, 7)}-01`;
}

/**
 * The complaints and conditions by ZIP code of the twelve months before the month `$1` (its first day)
 * began. The types are written out: the partial index `events_area_reporting_idx` (migration
 * 1763702900000) holds exactly these events, and the planner uses it only for a query whose conditions
 * imply its own. A type added here needs that index changed.
 */
export const AREA_REPORTING_SQL = `
  SELECT b.zipcode,
         count(*) FILTER (WHERE e.event_type IN (${sqlList(COMPLAINT_TYPES)}))::float8 AS complaints,
         count(*) FILTER (WHERE e.event_type IN (${sqlList(CONDITION_TYPES)}))::float8 AS conditions
    FROM events e JOIN buildings b ON b.bbl = e.bbl
   WHERE b.zipcode IS NOT NULL AND NOT e.scoring_excluded
     AND e.event_type IN (${sqlList([...COMPLAINT_TYPES, ...CONDITION_TYPES])})
     AND e.occurred_on >= ($1::date - interval '1 year') AND e.occurred_on < $1::date
   GROUP BY b.zipcode`;

/**
 * The reporting propensity by ZIP code of a run as of `asOf`: that of the as-of's month, so every run of
 * a month scores with the same one. The counts behind it are read from `events` by a full run
 * (`recount`), and by the first run of the month that finds none kept; the other runs read them back
 * (`area_reporting_counts`). On the whole city the read took ~15 s of a daily refresh's rescoring
 * (docs/adr/0016-area-propensity-by-month.md). Records of the counted year that arrive later in the month count from the next
 * full run on.
 */
export async function areaComplaintPropensity(pool: Pool, asOf: string, options: { recount: boolean }): Promise<Map<string, number>> {
  const month = propensityMonth(asOf);
  if (!options.recount) {
    const kept = await pool.query<{ counts: AreaReporting[] }>(`SELECT counts FROM area_reporting_counts WHERE month = $1::date`, [month]);
    if (kept.rows.length > 0) return reportingPropensity(kept.rows[0].counts);
  }
  const { rows } = await pool.query<AreaReporting>(AREA_REPORTING_SQL, [month]);
  await pool.query(
    `INSERT INTO area_reporting_counts (month, counts) VALUES ($1::date, $2::jsonb)
     ON CONFLICT (month) DO UPDATE SET counts = EXCLUDED.counts, counted_at = now()`,
    [month, JSON.stringify(rows)],
  );
  return reportingPropensity(rows);
}
