import type { Pool } from 'pg';
import { AEP_CRITERIA, bandFor, WATCHLIST_CRITERIA } from '@bhis/scoring';

/**
 * The simple rules an analyst would use instead of the score, computed from the events as of a cut
 * date. Each gives every building of 3+ units a number, higher meaning more at risk.
 */
export const BASELINES = ['units', 'open_bc_per_unit', 'aep_rule', 'watchlist_rule', 'events_per_unit'] as const;
export type Baseline = (typeof BASELINES)[number];

export const BASELINE_DESCRIPTIONS: Readonly<Record<Baseline, string>> = {
  units: 'residential units alone (bigger buildings have more of everything)',
  open_bc_per_unit: 'open HPD class B/C violations per unit',
  aep_rule: 'the published HPD AEP selection rule (open B/C violations of the last 5 years per unit and emergency repair charges), yes or no',
  watchlist_rule: 'the Public Advocate Worst Landlord Watchlist level (open B/C violations per unit), yes or no',
  events_per_unit: 'every record on file up to the cut date, per unit',
};

export interface BaselineRow {
  bbl: string;
  units: number;
  values: Record<Baseline, number>;
}

interface FeatureSqlRow {
  bbl: string;
  units: number;
  open_bc: number;
  open_bc_5y: number;
  charges_5y: number;
  events: number;
}

const OPEN_AT_CUT = `(e.status IN ('open', 'active') OR (e.closed_on IS NOT NULL AND e.closed_on > $1::date AND e.status NOT IN ('open', 'active')))`;

const FEATURES_SQL = `
  WITH f AS (
    SELECT e.bbl,
           count(*) FILTER (WHERE e.event_type = 'hpd_violation' AND e.severity IN ('critical', 'high') AND ${OPEN_AT_CUT})::int AS open_bc,
           count(*) FILTER (WHERE e.event_type = 'hpd_violation' AND e.severity IN ('critical', 'high') AND ${OPEN_AT_CUT}
                              AND e.occurred_on > $1::date - interval '5 years')::int AS open_bc_5y,
           COALESCE(sum(CASE WHEN jsonb_typeof(e.attributes -> 'amount') = 'number' THEN (e.attributes ->> 'amount')::float8 END)
             FILTER (WHERE e.event_type IN ('emergency_repair_omo', 'emergency_repair_hwo') AND NOT e.scoring_excluded
                       AND e.occurred_on > $1::date - interval '5 years'), 0)::float8 AS charges_5y,
           count(*) FILTER (WHERE NOT e.scoring_excluded)::int AS events
      FROM events e
     WHERE e.occurred_on <= $1::date
     GROUP BY e.bbl)
  SELECT b.bbl, GREATEST(b.residential_units, COALESCE(b.hpd_legal_units, 0))::int AS units,
         COALESCE(f.open_bc, 0) AS open_bc, COALESCE(f.open_bc_5y, 0) AS open_bc_5y,
         COALESCE(f.charges_5y, 0) AS charges_5y, COALESCE(f.events, 0) AS events
    FROM buildings b LEFT JOIN f ON f.bbl = b.bbl
   WHERE GREATEST(b.residential_units, COALESCE(b.hpd_legal_units, 0)) >= 3`;

export function baselineValues(r: Omit<FeatureSqlRow, 'bbl'>): Record<Baseline, number> {
  const aep = bandFor(AEP_CRITERIA, r.units);
  const watchlist = bandFor(WATCHLIST_CRITERIA, r.units);
  return {
    units: r.units,
    open_bc_per_unit: r.open_bc / r.units,
    aep_rule: aep !== undefined && r.open_bc_5y >= aep.open_bc_per_unit * r.units && r.charges_5y >= aep.emergency_repair_charges ? 1 : 0,
    watchlist_rule: watchlist !== undefined && r.open_bc >= watchlist.open_bc_per_unit * r.units ? 1 : 0,
    events_per_unit: r.events / r.units,
  };
}

/** Every baseline for every building of 3+ units, as of the cut date. */
export async function baselinesAt(pool: Pool, cut: string): Promise<BaselineRow[]> {
  const { rows } = await pool.query<FeatureSqlRow>(FEATURES_SQL, [cut]);
  return rows.map((r) => ({ bbl: r.bbl, units: r.units, values: baselineValues(r) }));
}
