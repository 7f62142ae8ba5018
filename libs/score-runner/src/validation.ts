import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { auc, precisionAtTop, spearman } from './validation-metrics';
import { runScoring } from './scoring-run';

/**
 * Validation of the model against outcomes. It reads only the events (so the same backtest runs on
 * real data) and, for a synthetic city, its hidden truth (latent distress and future outcomes).
 */
export interface TruthRow {
  bbl: string;
  latentAsOf: number;
  seriousAfterCut: boolean;
}

export interface ValidationReport {
  as_of: string;
  cut: string;
  buildings: number;
  grade_distribution: Record<string, number>;
  spearman_latent: number | null;
  backtest: {
    outcome_rate: number;
    auc_event_outcomes: number;
    precision_worst_5pct: number;
    auc_truth_outcomes: number | null;
    precision_worst_5pct_truth: number | null;
  };
  anchors: { aep_qualifying: number; aep_qualifying_graded_d_or_f: number; clean: number; clean_graded_d_or_f: number };
}

/** Serious outcomes in the 12 months after `cut`, from events: vacates, AEP/UCP entries, large emergency repairs, class C spikes. */
const OUTCOMES_SQL = `
  WITH w AS (SELECT $1::date AS cut, ($1::date + interval '12 months')::date AS until)
  SELECT DISTINCT e.bbl FROM events e, w
   WHERE e.occurred_on > w.cut AND e.occurred_on <= w.until AND NOT e.scoring_excluded
     AND (e.event_type IN ('hpd_vacate_order', 'fdny_vacate', 'dob_vacate_order', 'aep_enrollment', 'ucp_order')
          OR (e.event_type IN ('emergency_repair_omo', 'emergency_repair_hwo') AND jsonb_typeof(e.attributes -> 'amount') = 'number'
              AND (e.attributes ->> 'amount')::numeric >= 1000))
  UNION
  SELECT c.bbl FROM (
    SELECT e.bbl, date_trunc('month', e.occurred_on) AS month, count(*) AS n FROM events e, w
     WHERE e.event_type = 'hpd_violation' AND e.severity = 'critical' AND e.occurred_on > w.cut AND e.occurred_on <= w.until
     GROUP BY 1, 2) c
  JOIN buildings b ON b.bbl = c.bbl
  WHERE c.n >= greatest(3, ceil(0.15 * b.residential_units))`;

/** HPD AEP selection criteria (sources.md), from events as of a date. */
const AEP_QUALIFYING_SQL = `
  WITH f AS (
    SELECT b.bbl, b.residential_units AS units,
           (SELECT count(*) FROM events e WHERE e.bbl = b.bbl AND e.event_type = 'hpd_violation' AND e.severity IN ('critical', 'high')
              AND e.occurred_on > $1::date - interval '5 years' AND e.occurred_on <= $1::date
              AND (e.status = 'open' OR e.closed_on > $1::date)) AS open_bc,
           (SELECT coalesce(sum((e.attributes ->> 'amount')::numeric), 0) FROM events e
             WHERE e.bbl = b.bbl AND e.event_type IN ('emergency_repair_omo', 'emergency_repair_hwo') AND NOT e.scoring_excluded
               AND jsonb_typeof(e.attributes -> 'amount') = 'number'
               AND e.occurred_on > $1::date - interval '5 years' AND e.occurred_on <= $1::date) AS charges
      FROM buildings b WHERE b.residential_units >= 3)
  SELECT bbl FROM f
   WHERE (units >= 20 AND open_bc >= 3 * units AND charges >= 2500) OR (units < 20 AND open_bc >= 5 * units AND charges >= 5000)`;

/** The public "clean" anchor: no open B/C violations, no complaint in the last year, a valid registration where one is due. */
const CLEAN_SQL = `
  SELECT b.bbl FROM buildings b
   WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.bbl = b.bbl AND e.event_type = 'hpd_violation' AND e.severity IN ('critical', 'high')
                       AND e.occurred_on <= $1::date AND (e.status = 'open' OR e.closed_on > $1::date))
     AND NOT EXISTS (SELECT 1 FROM events e WHERE e.bbl = b.bbl AND e.event_type IN ('hpd_complaint', 'complaint_311')
                       AND e.occurred_on > $1::date - interval '1 year' AND e.occurred_on <= $1::date)
     AND (NOT (b.in_hpd_jurisdiction AND b.residential_units >= 3) OR b.registration_end_date >= $1::date)`;

async function bblSet(pool: Pool, sql: string, date: string): Promise<Set<string>> {
  const { rows } = await pool.query<{ bbl: string }>(sql, [date]);
  return new Set(rows.map((r) => r.bbl));
}

async function historyScores(pool: Pool, runId: string): Promise<Map<string, { total: number; grade: string }>> {
  const { rows } = await pool.query<{ bbl: string; total_score: number; grade: string }>(
    `SELECT bbl, total_score, grade FROM score_history WHERE run_id = $1`,
    [runId],
  );
  return new Map(rows.map((r) => [r.bbl, { total: r.total_score, grade: r.grade }]));
}

const round = (x: number, digits = 3) => (Number.isFinite(x) ? Math.round(x * 10 ** digits) / 10 ** digits : Number.NaN);

/** Scores the loaded city as of the cut date and as of `asOf` (history only) and measures the model. */
export async function validateModel(pool: Pool, options: { asOf: string; cut: string; truth?: Map<string, TruthRow> }): Promise<ValidationReport> {
  const cutRun = randomUUID();
  const nowRun = randomUUID();
  await runScoring(pool, { runId: cutRun, kind: 'full', asOf: options.cut, writeCurrent: false });
  await runScoring(pool, { runId: nowRun, kind: 'full', asOf: options.asOf, writeCurrent: false });
  const atCut = await historyScores(pool, cutRun);
  const atNow = await historyScores(pool, nowRun);

  const outcomes = await bblSet(pool, OUTCOMES_SQL, options.cut);
  const bbls = [...atCut.keys()].sort();
  const cutScores = bbls.map((b) => atCut.get(b)?.total ?? 0);
  const eventLabels = bbls.map((b) => outcomes.has(b));

  const grades: Record<string, number> = {};
  for (const { grade } of atNow.values()) grades[grade] = (grades[grade] ?? 0) + 1;

  const aep = await bblSet(pool, AEP_QUALIFYING_SQL, options.asOf);
  const clean = await bblSet(pool, CLEAN_SQL, options.asOf);
  const dOrF = (set: Set<string>) => [...set].filter((b) => ['D', 'F'].includes(atNow.get(b)?.grade ?? '')).length;

  let spearmanLatent: number | null = null;
  let truthAuc: number | null = null;
  let truthPrecision: number | null = null;
  if (options.truth) {
    const known = bbls.filter((b) => options.truth?.has(b) && atNow.has(b));
    spearmanLatent = round(spearman(known.map((b) => atNow.get(b)?.total ?? 0), known.map((b) => options.truth?.get(b)?.latentAsOf ?? 0)));
    const truthKnown = bbls.filter((b) => options.truth?.has(b));
    const truthLabels = truthKnown.map((b) => options.truth?.get(b)?.seriousAfterCut ?? false);
    const truthScores = truthKnown.map((b) => atCut.get(b)?.total ?? 0);
    truthAuc = round(auc(truthScores, truthLabels));
    truthPrecision = round(precisionAtTop(truthScores, truthLabels, 0.05));
  }

  return {
    as_of: options.asOf,
    cut: options.cut,
    buildings: atNow.size,
    grade_distribution: grades,
    spearman_latent: spearmanLatent,
    backtest: {
      outcome_rate: round(eventLabels.filter(Boolean).length / Math.max(1, eventLabels.length)),
      auc_event_outcomes: round(auc(cutScores, eventLabels)),
      precision_worst_5pct: round(precisionAtTop(cutScores, eventLabels, 0.05)),
      auc_truth_outcomes: truthAuc,
      precision_worst_5pct_truth: truthPrecision,
    },
    anchors: { aep_qualifying: aep.size, aep_qualifying_graded_d_or_f: dOrF(aep), clean: clean.size, clean_graded_d_or_f: dOrF(clean) },
  };
}
