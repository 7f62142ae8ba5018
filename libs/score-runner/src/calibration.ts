import type { Pool } from 'pg';
import { COMPONENT_KEYS, ComponentKey } from '@bhis/domain';
import { accumulateSignals, applyAnchors, BuildingFeatures, CALIBRATION_GRID, combineComponents, deriveFeatures, FITTED_MODEL, FittedModel, MAX_COMPONENT_IN_TOTAL, scoreComponents, TotalModel } from '@bhis/scoring';
import { buildingInput, histogramByBbl } from './building-input';
import { readChunk } from './feature-queries';
import { fitLogistic, LogisticFit, predictLogit, standardize, unstandardize } from './logistic';
import { startRun } from './scoring-run';
import { publicHousingBbls } from './validation';

/**
 * The fit of the model's constants (fitted-constants.ts) by logistic regression of the serious outcomes
 * of the 12 months after one cut date (the training cut) on the components scored as of that date.
 * Deterministic (Newton's method, no random start, fixed grids), so the same city gives the same
 * constants: `bhis validate --calibrate`.
 *
 * For every half-life factor of HALF_LIFE_FACTORS (the components scored again with every signal's
 * half-life multiplied by it) and every knee of KNEES, the outcome's log-odds on ln(h_i + knee) for each
 * component's log-health h_i = -ln(1 - score / 100), and on ln(units / 3), every coefficient kept
 * non-negative (a component that ranks against the outcome weighs nothing rather than the wrong way).
 * The pair with the highest log-likelihood wins; its weights are the component coefficients over their
 * sum (they sum to 1, as the total's form needs) and the size exponent the size coefficient over the
 * same sum, so the total ranks as the fit does (total-score.ts).
 */
export interface CalibrationSample {
  bbl: string;
  cut: string;
  units: number;
  components: Record<ComponentKey, number>;
  label: boolean;
  /** The building's derived features, for the public anchors (scale of the total); absent in tests of the weights alone. */
  features?: BuildingFeatures;
}

type Fitted = Omit<FittedModel, 'fitted_by'>;

export interface CalibrationResult {
  fitted_on: string;
  samples: number;
  positives: number;
  current: Fitted;
  fitted: Fitted;
  /** Log-likelihood of every candidate, by half-life factor and knee. */
  candidates: { half_life_factor: number; knee: number; log_likelihood: number }[];
  /** Log-likelihood of the small buildings' ranking at every half-life factor (smallBuildingFactor). */
  small_building_candidates: { half_life_factor: number; log_likelihood: number }[];
  /** Per scale of the grid, the share of the training buildings a public anchor's floor lifts. */
  floor_shares: { scale: number; share: number }[];
}

/**
 * The scale of the total: the smallest of CALIBRATION_GRID.scales at which the public anchors' floors
 * (serious hazards, UCP, AEP, Watchlist) lift at most max_floor_share of the training buildings. The
 * anchors guard what the records miss; a total that needs them for more buildings sits below the levels
 * of the published rules. Samples without features (tests of the weights) keep the scale 1.
 */
function scaleOf(samples: readonly CalibrationSample[], model: Omit<Fitted, 'scale' | 'confidence'>): { scale: number; shares: { scale: number; share: number }[] } {
  const anchored = samples.filter((s) => s.features !== undefined);
  if (anchored.length === 0) return { scale: 1, shares: [] };
  const shares = CALIBRATION_GRID.scales.map((scale) => {
    let lifted = 0;
    for (const s of anchored) {
      const raw = combineComponents(s.components, s.units, { ...model, scale });
      if (applyAnchors(raw, s.features as BuildingFeatures).total > Math.round(raw)) lifted++;
    }
    return { scale, share: Math.round((lifted / anchored.length) * 1000) / 1000 };
  });
  const first = shares.find((s) => s.share <= CALIBRATION_GRID.max_floor_share);
  return { scale: (first ?? shares[shares.length - 1]).scale, shares };
}

export const HALF_LIFE_FACTORS = CALIBRATION_GRID.half_life_factors;
export const KNEES = CALIBRATION_GRID.knees;

const logHealthOf = (score: number) => -Math.log1p(-Math.min(score, MAX_COMPONENT_IN_TOTAL) / 100);
const logSize = (units: number) => Math.log(Math.max(units, FITTED_MODEL.size.from_units) / FITTED_MODEL.size.from_units);

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Weights rounded to 3 decimals that still sum to 1 (the largest takes the rounding). */
function roundedWeights(raw: Record<ComponentKey, number>): Record<ComponentKey, number> {
  const sum = COMPONENT_KEYS.reduce((s, k) => s + raw[k], 0);
  const weights = Object.fromEntries(COMPONENT_KEYS.map((k) => [k, round3(raw[k] / sum)])) as Record<ComponentKey, number>;
  const largest = COMPONENT_KEYS.reduce((a, b) => (weights[b] > weights[a] ? b : a));
  weights[largest] = round3(1 - COMPONENT_KEYS.filter((k) => k !== largest).reduce((s, k) => s + weights[k], 0));
  return weights;
}

function logLikelihood(x: readonly (readonly number[])[], y: readonly number[], fit: LogisticFit): number {
  let ll = 0;
  x.forEach((row, i) => {
    const z = predictLogit(fit, row);
    // log(sigmoid(z)) and log(1 - sigmoid(z)) without overflow
    ll += y[i] === 1 ? -Math.log1p(Math.exp(-z)) : -Math.log1p(Math.exp(z));
  });
  return ll;
}

/** The weights, size exponent and log-likelihood of one knee on samples scored at one half-life factor. */
export function fitAtKnee(samples: readonly CalibrationSample[], knee: number): { component_weights: Record<ComponentKey, number>; size: FittedModel['size']; log_likelihood: number } {
  const y = samples.map((s) => (s.label ? 1 : 0));
  const x = samples.map((s) => [...COMPONENT_KEYS.map((k) => Math.log(logHealthOf(s.components[k]) + knee)), logSize(s.units)]);
  const z = standardize(x);
  const fit = unstandardize(fitLogistic(z.z, y, { nonNegative: x[0].map(() => true) }), z.mean, z.sd);
  const raw = Object.fromEntries(COMPONENT_KEYS.map((k, j) => [k, fit.coefficients[j]])) as Record<ComponentKey, number>;
  const sum = COMPONENT_KEYS.reduce((s, k) => s + raw[k], 0);
  if (!(sum > 0)) throw new Error('calibration: no component ranks the outcomes; the weights cannot be fitted');
  return {
    component_weights: roundedWeights(raw),
    size: { exponent: round3(fit.coefficients[COMPONENT_KEYS.length] / sum), from_units: FITTED_MODEL.size.from_units },
    log_likelihood: logLikelihood(x, y, fit),
  };
}

/**
 * Fits on the earliest cut date of the samples. `byFactor`: the samples scored at each half-life factor
 * (HALF_LIFE_FACTORS, or only the current one).
 */
export function calibrate(byFactor: ReadonlyMap<number, readonly CalibrationSample[]>): CalibrationResult {
  const any = [...byFactor.values()][0] ?? [];
  const cuts = [...new Set(any.map((s) => s.cut))].sort();
  const fittedOn = cuts[0];
  let best: (Omit<Fitted, 'scale' | 'confidence' | 'small_buildings'> & { log_likelihood: number }) | null = null;
  const candidates: CalibrationResult['candidates'] = [];
  for (const [factor, samples] of [...byFactor].sort((a, b) => a[0] - b[0])) {
    const training = samples.filter((s) => s.cut === fittedOn);
    for (const knee of KNEES) {
      const fit = fitAtKnee(training, knee);
      candidates.push({ half_life_factor: factor, knee, log_likelihood: Math.round(fit.log_likelihood * 1000) / 1000 });
      if (best === null || fit.log_likelihood > best.log_likelihood + 1e-9) best = { ...fit, knee, half_life_factor: factor };
    }
  }
  if (best === null) throw new Error('calibration: no samples');
  const training = any.filter((s) => s.cut === fittedOn);
  const { log_likelihood: _ll, ...weighed } = best;
  const small = smallBuildingFactor(byFactor, fittedOn, weighed);
  const atFactors = { ...weighed, small_buildings: { to_units: CALIBRATION_GRID.small_building_units, half_life_factor: small.factor, level: 1 } };
  const level = smallBuildingLevel(trainingAt(byFactor, fittedOn, atFactors), weighed);
  const chosen = { ...weighed, small_buildings: { ...atFactors.small_buildings, level } };
  const scale = scaleOf(trainingAt(byFactor, fittedOn, chosen), chosen);
  // the confidence's constants are fitted on scored pairs of cut dates (confidence-calibration.ts)
  const fitted: Fitted = { ...chosen, scale: scale.scale, confidence: FITTED_MODEL.confidence };
  return {
    fitted_on: fittedOn,
    samples: training.length,
    positives: training.filter((s) => s.label).length,
    current: {
      component_weights: { ...FITTED_MODEL.component_weights },
      size: { ...FITTED_MODEL.size },
      knee: FITTED_MODEL.knee,
      half_life_factor: FITTED_MODEL.half_life_factor,
      small_buildings: { ...FITTED_MODEL.small_buildings },
      scale: FITTED_MODEL.scale,
      confidence: FITTED_MODEL.confidence,
    },
    fitted,
    candidates,
    small_building_candidates: small.candidates,
    floor_shares: scale.shares,
  };
}

/** The training buildings as the model scores them: the small ones at their own factor, the others at the main one. */
function trainingAt(byFactor: ReadonlyMap<number, readonly CalibrationSample[]>, cut: string, model: Pick<FittedModel, 'half_life_factor' | 'small_buildings'>): CalibrationSample[] {
  return (byFactor.get(model.half_life_factor) ?? [])
    .filter((s) => s.cut === cut && s.units > model.small_buildings.to_units)
    .concat((byFactor.get(model.small_buildings.half_life_factor) ?? []).filter((s) => s.cut === cut && s.units <= model.small_buildings.to_units));
}

/**
 * The half-life factor of the small buildings (up to CALIBRATION_GRID.small_building_units units): with
 * the weights, knee and size exponent of the pooled fit, the factor of HALF_LIFE_FACTORS whose ranking
 * of the small training buildings (sum_i w_i ln(h_i + knee) + exponent x ln(units / 3)) has the highest
 * log-likelihood in a logistic regression of their outcomes on it. The pooled fit's factor serves the
 * many records of large buildings; a small building's few records rank better over a longer memory.
 */
export function smallBuildingFactor(
  byFactor: ReadonlyMap<number, readonly CalibrationSample[]>,
  cut: string,
  model: Pick<FittedModel, 'component_weights' | 'size' | 'knee' | 'half_life_factor'>,
): { factor: number; candidates: { half_life_factor: number; log_likelihood: number }[] } {
  const candidates: { half_life_factor: number; log_likelihood: number }[] = [];
  let best = { factor: model.half_life_factor, ll: -Infinity };
  for (const [factor, samples] of [...byFactor].sort((a, b) => a[0] - b[0])) {
    const small = samples.filter((s) => s.cut === cut && s.units <= CALIBRATION_GRID.small_building_units);
    const y = small.map((s) => (s.label ? 1 : 0));
    if (small.length === 0 || !y.some((v) => v === 1)) continue;
    const x = small.map((s) => [rankingOf(s, model)]);
    const z = standardize(x);
    const fit = unstandardize(fitLogistic(z.z, y, { nonNegative: [true] }), z.mean, z.sd);
    const ll = logLikelihood(x, y, fit);
    candidates.push({ half_life_factor: factor, log_likelihood: Math.round(ll * 1000) / 1000 });
    if (ll > best.ll + 1e-9) best = { factor, ll };
  }
  return { factor: best.factor, candidates };
}

/**
 * The small buildings' level: a logistic regression of the training buildings' outcomes (the small ones
 * scored at their own factor) on the ranking and on being small, exp(coefficient of small / coefficient
 * of the ranking), so a small building's longer memory does not move it against larger ones more than
 * its outcomes do. 1 without small or without larger buildings.
 */
export function smallBuildingLevel(samples: readonly CalibrationSample[], model: Pick<FittedModel, 'component_weights' | 'size' | 'knee'>): number {
  const small = (s: CalibrationSample) => (s.units <= CALIBRATION_GRID.small_building_units ? 1 : 0);
  const y = samples.map((s) => (s.label ? 1 : 0));
  if (samples.every((s) => small(s) === 1) || samples.every((s) => small(s) === 0) || !y.some((v) => v === 1)) return 1;
  const x = samples.map((s) => [rankingOf(s, model), small(s)]);
  const z = standardize(x);
  const fit = unstandardize(fitLogistic(z.z, y, { nonNegative: [true, false] }), z.mean, z.sd);
  const [slope, offset] = fit.coefficients;
  return slope > 0 ? round3(Math.exp(offset / slope)) : 1;
}

/** What the total ranks by (total-score.ts): sum_i w_i ln(h_i + knee) + exponent x ln(units / 3). */
function rankingOf(sample: Pick<CalibrationSample, 'components' | 'units'>, model: Pick<FittedModel, 'component_weights' | 'size' | 'knee'>): number {
  return COMPONENT_KEYS.reduce((s, k) => s + model.component_weights[k] * Math.log(logHealthOf(sample.components[k]) + model.knee), 0) + model.size.exponent * logSize(sample.units);
}

/** The total a model gives a sample before the public anchors (what the fit ranks by). */
export function candidateTotal(sample: Pick<CalibrationSample, 'components' | 'units'>, model: TotalModel): number {
  return combineComponents(sample.components, sample.units, model);
}

/**
 * The component scores of the buildings of 3+ units at `cut`, scored in this process at every half-life
 * factor (the features read once), labelled by `labelOf` (a serious outcome in the 12 months after the
 * cut); public housing left out, as in the backtest.
 */
export async function calibrationSamples(
  pool: Pool,
  cut: string,
  labelOf: (bbl: string) => boolean | undefined,
  factors: readonly number[] = HALF_LIFE_FACTORS,
): Promise<Map<number, CalibrationSample[]>> {
  const start = await startRun(pool, cut, { settled: false, recountPropensity: true });
  const publicHousing = await publicHousingBbls(pool);
  const byFactor = new Map<number, CalibrationSample[]>(factors.map((f) => [f, []]));
  const { rows } = await pool.query<{ bbl: string }>(`SELECT bbl FROM buildings ORDER BY bbl`);
  const bbls = rows.map((r) => r.bbl);
  for (let i = 0; i < bbls.length; i += SAMPLE_CHUNK) {
    const chunk = await readChunk(pool, bbls.slice(i, i + SAMPLE_CHUNK), cut, null);
    const histograms = histogramByBbl(chunk.histogram, chunk.settled, cut);
    for (const facts of chunk.facts) {
      const label = labelOf(facts.bbl);
      if (label === undefined || publicHousing.has(facts.bbl)) continue;
      const input = buildingInput(facts, histograms.get(facts.bbl) ?? [], chunk, start.context);
      const features = deriveFeatures(input);
      if (features.units < 3) continue;
      for (const factor of factors) {
        const results = scoreComponents(input, features, accumulateSignals(input.histogram, 0, factor), false, factor);
        const components = Object.fromEntries(COMPONENT_KEYS.map((k) => [k, results[k].score])) as Record<ComponentKey, number>;
        byFactor.get(factor)?.push({ bbl: facts.bbl, cut, units: features.units, components, label, features });
      }
    }
  }
  return byFactor;
}

const SAMPLE_CHUNK = 2000;
