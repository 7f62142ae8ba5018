import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { isPublicHousingBuilding } from '@bhis/scoring';
import { Baseline, BaselineRow, BASELINES, baselinesAt } from './baselines';
import { COMPONENT_KEYS, ComponentKey } from '@bhis/domain';
import { fitLogistic, predictLogit, standardize, unstandardize } from './logistic';
import { auc, aucStandardError, expectedAuc, expectedPrecisionAtK, headroomClosed, precisionAtK, precisionAtTop, spearman } from './validation-metrics';
import { runScoring } from './scoring-run';

/**
 * Validation of the model against outcomes. It reads only the events (so the same backtest runs on
 * real data) and, for a synthetic city, its hidden truth (latent distress and future outcomes).
 */
export interface TruthRow {
  bbl: string;
  latentAsOf: number;
  seriousAfterCut: boolean;
  /** Every serious outcome of the window (truth.csv serious_days), ISO dates; labels for any cut. */
  seriousDays?: string[];
  /** Latent distress on January 1 of each year (truth.csv latent_YYYY), for the ceiling of the backtest. */
  latentByYear?: Record<number, number>;
  /** The generator made the lot public housing (truth.csv public_housing). */
  publicHousing?: boolean;
  /** The generator's probability of a serious outcome in the 365 days after each date (truth.csv p_serious_12m_after_YYYY-MM-DD). */
  probabilityAfter?: Record<string, number>;
}

/**
 * The loaded buildings the scorer treats as public housing (its `public-housing` known limit, on the same
 * facts): graded between B and D at the lowest confidence because HPD does not inspect or enforce there,
 * so the harness counts them apart and leaves them out of every ranking measure.
 */
export async function publicHousingBbls(pool: Pool): Promise<Set<string>> {
  const { rows } = await pool.query<{ bbl: string; management_program: string | null; owner_name: string | null }>(
    `SELECT bbl, management_program, owner_name FROM buildings WHERE management_program IS NOT NULL OR owner_name IS NOT NULL`,
  );
  return new Set(rows.filter((r) => isPublicHousingBuilding(r)).map((r) => r.bbl));
}

/**
 * The hidden latent distress on a date, interpolated between the January 1 values around it: what a
 * scorer that knew the hidden condition at the cut would rank by. Harness only; the scorer never sees it.
 */
export function latentOn(truth: TruthRow | undefined, date: string): number {
  const byYear = truth?.latentByYear;
  if (byYear === undefined) return Number.NaN;
  const year = Number(date.slice(0, 4));
  const start = Date.parse(`${year}-01-01T00:00:00Z`);
  const share = (Date.parse(`${date}T00:00:00Z`) - start) / (Date.parse(`${year + 1}-01-01T00:00:00Z`) - start);
  const a = byYear[year];
  const b = byYear[year + 1] ?? a;
  return a === undefined ? Number.NaN : a + share * (b - a);
}

export interface ValidationReport {
  as_of: string;
  cut: string;
  buildings: number;
  grade_distribution: Record<string, number>;
  /**
   * Public housing (publicHousingBbls), in the grade distribution but left out of the Spearman correlation,
   * the backtests and the anchors; `truth_marked`: the lots truth.csv marks as public housing (null without truth).
   */
  public_housing: { buildings: number; grade_distribution: Record<string, number>; truth_marked: number | null };
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

/** HPD AEP selection criteria (docs/methodology.md, Public anchors), from events as of a date. */
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

/** The buildings with a serious outcome in the 12 months after `cut`, from the events (the labels of a real city). */
export function eventOutcomes(pool: Pool, cut: string): Promise<Set<string>> {
  return bblSet(pool, OUTCOMES_SQL, cut);
}

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
  const publicHousing = await publicHousingBbls(pool);
  const bbls = [...atCut.keys()].filter((b) => !publicHousing.has(b)).sort();
  const cutScores = bbls.map((b) => atCut.get(b)?.total ?? 0);
  const eventLabels = bbls.map((b) => outcomes.has(b));

  const grades: Record<string, number> = {};
  const publicHousingGrades: Record<string, number> = {};
  for (const [bbl, { grade }] of atNow) {
    grades[grade] = (grades[grade] ?? 0) + 1;
    if (publicHousing.has(bbl)) publicHousingGrades[grade] = (publicHousingGrades[grade] ?? 0) + 1;
  }

  const ranked = (set: Set<string>) => new Set([...set].filter((b) => !publicHousing.has(b)));
  const aep = ranked(await bblSet(pool, AEP_QUALIFYING_SQL, options.asOf));
  const clean = ranked(await bblSet(pool, CLEAN_SQL, options.asOf));
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
    public_housing: {
      buildings: [...atNow.keys()].filter((b) => publicHousing.has(b)).length,
      grade_distribution: publicHousingGrades,
      truth_marked: options.truth ? [...options.truth.values()].filter((t) => t.publicHousing === true).length : null,
    },
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

/** Unit bands of the baseline backtest. */
export const UNIT_BANDS = [
  { key: '3-5', min: 3, max: 5 },
  { key: '6-19', min: 6, max: 19 },
  { key: '20-49', min: 20, max: 49 },
  { key: '50+', min: 50, max: Number.POSITIVE_INFINITY },
] as const;
/** k of precision at k: the buildings a city program can act on, per 100,000 units, and at least MIN_K. */
export const ACTIONABLE_PER_100K_UNITS = 250;
export const MIN_K = 50;

/** What the backtest ranks by: the score, each baseline, the fitted reference, and (with the truth file) the Bayes ranking. */
export const RANKINGS = ['score', ...BASELINES, 'reference', 'bayes'] as const;
export type Ranking = (typeof RANKINGS)[number];

export interface BandResult {
  band: string;
  buildings: number;
  units: number;
  /** realized serious outcomes in the 12 months after the cut */
  positives: number;
  /** the sum of the generator's probabilities (null without them) */
  expected_positives: number | null;
  /** AUC with the generator's probabilities as soft labels (null without them) */
  expected_auc: Record<Ranking, number> | null;
  /** AUC of the realized outcomes, and the standard error of the score's (Hanley-McNeil) */
  realized_auc: Record<Ranking, number>;
  realized_auc_se: number;
  /** (AUC - best baseline) / (Bayes - best baseline), expected AUC, for the score and the reference */
  headroom_closed: { score: number; reference: number; best_baseline: Baseline } | null;
}

export interface PooledPrecision {
  k: number;
  buildings: number;
  expected: Record<Ranking, number> | null;
  realized: Record<Ranking, number>;
  headroom_closed: { score: number; reference: number; best_baseline: Baseline } | null;
}

export interface CalibrationRow {
  tier: string;
  buildings: number;
  /** Mean absolute change of total_score at the refresh one month later. */
  mean_move_next_refresh: number;
  share_grade_changed_next_refresh: number;
  /** Share with the same grade at the next cut date (12 months later). */
  share_same_grade_next_cut: number;
  /** Share whose total at the next cut date lies within the interval reported at the cut (confidence.interval). */
  interval_covers_next_cut: number;
}

/** Per grade and confidence tier at the cut: the share keeping the grade at the next cut date. */
export interface GradeTierRow {
  grade: string;
  tier: string;
  buildings: number;
  share_same_grade_next_cut: number;
}

/** Per unit band and grade at the cut: buildings and the share with a serious outcome in the next 12 months. */
export interface GradeOutcomeRow {
  band: string;
  grade: string;
  buildings: number;
  realized_rate: number;
  expected_rate: number | null;
}

export interface BaselineBacktest {
  /** Buildings of 3+ units, per cut, left out of the bands as public housing (publicHousingBbls). */
  cuts: { cut: string; bands: BandResult[]; pooled_precision: PooledPrecision; public_housing: number }[];
  calibration: CalibrationRow[];
  grade_tiers: GradeTierRow[];
  grade_outcomes: GradeOutcomeRow[];
}

export interface BaselineOptions {
  /** Cut dates, any order; each is scored, and scored again a month later (the next refresh). */
  cuts: string[];
  /** Date after the last cut whose scores give the last cut's "next cut" grades. */
  asOf: string;
  /** The synthetic city's truth (labels and probabilities); without it the labels come from the events (OUTCOMES_SQL). */
  truth?: Map<string, TruthRow>;
}

const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

interface CutScore {
  total: number;
  grade: string;
  tier: string;
  interval: { low: number; high: number };
  components: Record<ComponentKey, number>;
}

async function currentScores(pool: Pool): Promise<Map<string, CutScore>> {
  const { rows } = await pool.query<{
    bbl: string;
    total_score: number;
    grade: string;
    tier: string;
    interval: { low: number; high: number } | null;
    components: Record<ComponentKey, { score: number }>;
  }>(`SELECT bbl, total_score, grade, confidence ->> 'tier' AS tier, confidence -> 'interval' AS interval, components FROM building_scores`);
  return new Map(
    rows.map((r) => [
      r.bbl,
      { total: r.total_score, grade: r.grade, tier: r.tier, interval: r.interval ?? { low: r.total_score, high: r.total_score }, components: Object.fromEntries(COMPONENT_KEYS.map((k) => [k, r.components[k]?.score ?? 0])) as Record<ComponentKey, number> },
    ]),
  );
}

function outcomeWithin(truth: TruthRow | undefined, from: string, to: string): boolean {
  return (truth?.seriousDays ?? []).some((day) => day > from && day <= to);
}

const logHealth = (score: number) => -Math.log1p(-Math.min(score, 99.9) / 100);

/** The reference's features: the seven components' log-health, ln(units / 3) and the baselines. */
function referenceFeatures(row: BaselineRow, score: CutScore): number[] {
  return [
    ...COMPONENT_KEYS.map((k) => logHealth(score.components[k])),
    Math.log(Math.max(row.units, 3) / 3),
    row.values.open_bc_per_unit,
    row.values.aep_rule,
    row.values.watchlist_rule,
    Math.log1p(row.values.events_per_unit),
  ];
}

/** A logistic regression on the same records, fitted to the cut's realized outcomes: what a plain fit reaches. */
function referenceScores(rows: readonly BaselineRow[], scores: Map<string, CutScore>, labels: readonly boolean[]): number[] {
  const x = rows.map((r) => referenceFeatures(r, scores.get(r.bbl) as CutScore));
  const { z, mean, sd } = standardize(x);
  const fit = unstandardize(fitLogistic(z, labels.map(Number)), mean, sd);
  return x.map((row) => predictLogit(fit, row));
}

function bestBaseline(values: Record<Ranking, number>): Baseline {
  return BASELINES.reduce((a, b) => ((Number.isFinite(values[b]) ? values[b] : 0) > (Number.isFinite(values[a]) ? values[a] : 0) ? b : a));
}

function headroomOf(values: Record<Ranking, number>): BandResult['headroom_closed'] {
  const best = bestBaseline(values);
  return {
    score: round(headroomClosed(values.score, values[best], values.bayes)),
    reference: round(headroomClosed(values.reference, values[best], values.bayes)),
    best_baseline: best,
  };
}

/** Every ranking's values for the rows of one cut. */
function rankingValues(rows: readonly BaselineRow[], scores: Map<string, CutScore>, reference: readonly number[], probability: readonly number[]): Record<Ranking, number[]> {
  return {
    score: rows.map((r) => scores.get(r.bbl)?.total ?? 0),
    ...(Object.fromEntries(BASELINES.map((b) => [b, rows.map((r) => r.values[b])])) as Record<Baseline, number[]>),
    reference: [...reference],
    bayes: [...probability],
  };
}

const pick = <T>(values: readonly T[], indexes: readonly number[]) => indexes.map((i) => values[i]);

/** Expected and realized AUC of every ranking per unit band, and the pooled precision at k, for outcomes in the 12 months after `cut`. */
function cutResults(
  rows: readonly BaselineRow[],
  scores: Map<string, CutScore>,
  labels: readonly boolean[],
  probability: readonly number[] | null,
): { bands: BandResult[]; pooled: PooledPrecision } {
  const reference = referenceScores(rows, scores, labels);
  const values = rankingValues(rows, scores, reference, probability ?? rows.map(() => Number.NaN));
  const measure = (indexes: readonly number[], metric: (v: number[], i: readonly number[]) => number) =>
    Object.fromEntries(RANKINGS.map((name) => [name, round(metric(pick(values[name], indexes), indexes))])) as Record<Ranking, number>;
  const bands: BandResult[] = [];
  for (const band of UNIT_BANDS) {
    const indexes = rows.flatMap((r, i) => (r.units >= band.min && r.units <= band.max ? [i] : []));
    const bandLabels = pick(labels, indexes);
    const positives = bandLabels.filter(Boolean).length;
    const realized = measure(indexes, (v) => auc(v, bandLabels));
    if (probability === null) realized.bayes = Number.NaN;
    const expected = probability === null ? null : measure(indexes, (v) => expectedAuc(v, pick(probability, indexes)));
    bands.push({
      band: band.key,
      buildings: indexes.length,
      units: indexes.reduce((s, i) => s + rows[i].units, 0),
      positives,
      expected_positives: probability === null ? null : round(indexes.reduce((s, i) => s + probability[i], 0), 1),
      expected_auc: expected,
      realized_auc: realized,
      realized_auc_se: round(aucStandardError(realized.score, positives, indexes.length - positives)),
      headroom_closed: expected === null ? null : headroomOf(expected),
    });
  }
  const all = rows.map((_, i) => i);
  const units = rows.reduce((s, r) => s + r.units, 0);
  const k = Math.min(rows.length, Math.max(MIN_K, Math.round((ACTIONABLE_PER_100K_UNITS * units) / 100_000)));
  const realizedPrecision = measure(all, (v) => precisionAtK(v, labels, k));
  if (probability === null) realizedPrecision.bayes = Number.NaN;
  const expectedPrecision = probability === null ? null : measure(all, (v) => expectedPrecisionAtK(v, probability, k));
  return {
    bands,
    pooled: { k, buildings: rows.length, expected: expectedPrecision, realized: realizedPrecision, headroom_closed: expectedPrecision === null ? null : headroomOf(expectedPrecision) },
  };
}

function bandOf(units: number): string {
  return UNIT_BANDS.find((b) => units >= b.min && units <= b.max)?.key ?? '50+';
}

/**
 * The score against the simple rules an analyst would use, at several cut dates and within unit bands:
 * expected AUC (the truth file's probabilities as soft labels) and realized AUC, and the pooled precision
 * at k, for serious outcomes in the 12 months after each cut, public housing left out (publicHousingBbls)
 * and counted per cut. Also the calibration of confidence: how much high- and low-confidence scores move
 * at the next refresh and whether they keep their grade at the next cut date (every building, public
 * housing included: it is in the lowest tier), and the outcome rate of each grade per unit band.
 */
export async function backtestAgainstBaselines(pool: Pool, options: BaselineOptions): Promise<BaselineBacktest> {
  const cuts = [...options.cuts].sort();
  const result: BaselineBacktest = { cuts: [], calibration: [], grade_tiers: [], grade_outcomes: [] };
  const atCut: Map<string, CutScore>[] = [];
  const atRefresh: Map<string, { total: number; grade: string }>[] = [];
  const publicHousing = await publicHousingBbls(pool);
  const gradeOutcomes = new Map<string, { n: number; realized: number; expected: number }>();
  for (const cut of cuts) {
    await runScoring(pool, { runId: randomUUID(), kind: 'full', asOf: cut, writeCurrent: true });
    atCut.push(await currentScores(pool));
    const refreshRun = randomUUID();
    await runScoring(pool, { runId: refreshRun, kind: 'full', asOf: addDays(cut, 30), writeCurrent: false });
    atRefresh.push(await historyScores(pool, refreshRun));

    const scores = atCut[atCut.length - 1];
    const truth = options.truth;
    const rows = (await baselinesAt(pool, cut)).filter((r) => (truth === undefined || truth.has(r.bbl)) && scores.has(r.bbl));
    const ranked = rows.filter((r) => !publicHousing.has(r.bbl));
    const until = addDays(cut, 365);
    const eventOutcomes = truth === undefined ? await bblSet(pool, OUTCOMES_SQL, cut) : null;
    const labels = ranked.map((r) => (truth === undefined ? (eventOutcomes as Set<string>).has(r.bbl) : outcomeWithin(truth.get(r.bbl), cut, until)));
    const probabilities = truth === undefined ? null : ranked.map((r) => truth.get(r.bbl)?.probabilityAfter?.[cut] ?? Number.NaN);
    const probability = probabilities !== null && probabilities.every(Number.isFinite) ? probabilities : null;
    const { bands, pooled } = cutResults(ranked, scores, labels, probability);
    result.cuts.push({ cut, bands, pooled_precision: pooled, public_housing: rows.length - ranked.length });
    ranked.forEach((r, i) => {
      const key = `${bandOf(r.units)}|${scores.get(r.bbl)?.grade}`;
      const acc = gradeOutcomes.get(key) ?? { n: 0, realized: 0, expected: 0 };
      acc.n++;
      if (labels[i]) acc.realized++;
      acc.expected += probability?.[i] ?? Number.NaN;
      gradeOutcomes.set(key, acc);
    });
  }
  for (const band of UNIT_BANDS) {
    for (const grade of ['A', 'B', 'C', 'D', 'F']) {
      const acc = gradeOutcomes.get(`${band.key}|${grade}`);
      if (acc === undefined) continue;
      result.grade_outcomes.push({
        band: band.key,
        grade,
        buildings: acc.n,
        realized_rate: round(acc.realized / acc.n),
        expected_rate: Number.isFinite(acc.expected) ? round(acc.expected / acc.n) : null,
      });
    }
  }
  // the grades one cut later: the next cut, or the as-of date after the last one
  const finalRun = randomUUID();
  await runScoring(pool, { runId: finalRun, kind: 'full', asOf: options.asOf, writeCurrent: false });
  const finalScores = await historyScores(pool, finalRun);
  const stability = stabilityOf(atCut, atRefresh, finalScores);
  result.calibration = stability.calibration;
  result.grade_tiers = stability.grade_tiers;
  return result;
}

/**
 * How scores move by confidence tier: at the refresh a month after each cut, and at the next cut (the
 * next cut's scores, or `finalScores` after the last): grade kept, total within the reported interval.
 */
function stabilityOf(
  atCut: readonly Map<string, CutScore>[],
  atRefresh: readonly Map<string, { total: number; grade: string }>[],
  finalScores: Map<string, { total: number; grade: string }>,
): Pick<BaselineBacktest, 'calibration' | 'grade_tiers'> {
  const result: Pick<BaselineBacktest, 'calibration' | 'grade_tiers'> = { calibration: [], grade_tiers: [] };
  const byTier = new Map<string, { n: number; move: number; changed: number; same: number; covered: number }>();
  const byGradeTier = new Map<string, { n: number; same: number }>();
  atCut.forEach((scores, i) => {
    const next = i + 1 < atCut.length ? atCut[i + 1] : finalScores;
    for (const [bbl, s] of scores) {
      const refresh = atRefresh[i].get(bbl);
      const later = next.get(bbl);
      if (refresh === undefined || later === undefined) continue;
      const acc = byTier.get(s.tier) ?? { n: 0, move: 0, changed: 0, same: 0, covered: 0 };
      acc.n++;
      acc.move += Math.abs(refresh.total - s.total);
      if (refresh.grade !== s.grade) acc.changed++;
      if (later.grade === s.grade) acc.same++;
      if (later.total >= s.interval.low && later.total <= s.interval.high) acc.covered++;
      byTier.set(s.tier, acc);
      const gradeTier = byGradeTier.get(`${s.grade}|${s.tier}`) ?? { n: 0, same: 0 };
      gradeTier.n++;
      if (later.grade === s.grade) gradeTier.same++;
      byGradeTier.set(`${s.grade}|${s.tier}`, gradeTier);
    }
  });
  for (const tier of ['high', 'medium', 'low', 'insufficient']) {
    const acc = byTier.get(tier);
    if (acc === undefined) continue;
    result.calibration.push({
      tier,
      buildings: acc.n,
      mean_move_next_refresh: round(acc.move / acc.n, 2),
      share_grade_changed_next_refresh: round(acc.changed / acc.n),
      share_same_grade_next_cut: round(acc.same / acc.n),
      interval_covers_next_cut: round(acc.covered / acc.n),
    });
  }
  for (const grade of ['A', 'B', 'C', 'D', 'F']) {
    for (const tier of ['high', 'medium', 'low', 'insufficient']) {
      const acc = byGradeTier.get(`${grade}|${tier}`);
      if (acc !== undefined) result.grade_tiers.push({ grade, tier, buildings: acc.n, share_same_grade_next_cut: round(acc.same / acc.n) });
    }
  }
  return result;
}
