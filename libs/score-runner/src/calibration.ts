import type { Pool } from 'pg';
import { COMPONENT_KEYS, ComponentKey } from '@bhis/domain';
import { FITTED_MODEL, FittedModel, MAX_COMPONENT_IN_TOTAL, combineComponents } from '@bhis/scoring';
import { fitLogistic, standardize, unstandardize } from './logistic';
import { publicHousingBbls } from './validation';

/**
 * The fit of the total's constants (fitted-constants.ts): the component weights and the size exponent,
 * by logistic regression of the serious outcomes of the 12 months after one cut date (the training cut)
 * on the components scored as of that date. Deterministic (Newton's method, no random start), so the same
 * city gives the same constants: `bhis validate --calibrate`.
 *
 * 1. Weights: the outcome's log-odds on each component's log-health, -ln(1 - score / 100) (the scale the
 *    total combines them on), and ln(units / 3), every coefficient kept non-negative (a component that
 *    ranks against the outcome weighs nothing rather than the wrong way); the weights are the component
 *    coefficients divided by their sum, so they sum to 1 as the total's form needs.
 * 2. Size: with those weights, the log-odds on ln(combined log-health) and ln(units / 3): the exponent is
 *    the ratio of the two coefficients (at least 0), the power of the size factor the total multiplies
 *    the combined log-health by (fitted-model.ts).
 */
export interface CalibrationSample {
  bbl: string;
  cut: string;
  units: number;
  components: Record<ComponentKey, number>;
  label: boolean;
}

export interface CalibrationResult {
  fitted_on: string;
  samples: number;
  positives: number;
  current: Pick<FittedModel, 'component_weights' | 'size'>;
  fitted: Pick<FittedModel, 'component_weights' | 'size'>;
}

const logHealthOf = (score: number) => -Math.log1p(-Math.min(score, MAX_COMPONENT_IN_TOTAL) / 100);
const logSize = (units: number) => Math.log(Math.max(units, FITTED_MODEL.size.from_units) / FITTED_MODEL.size.from_units);
/** ln of a combined log-health of 0 (no records) is taken at this floor (a total of 0.1). */
const LOG_HEALTH_FLOOR = 1e-3;

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Weights rounded to 3 decimals that still sum to 1 (the largest takes the rounding). */
function roundedWeights(raw: Record<ComponentKey, number>): Record<ComponentKey, number> {
  const sum = COMPONENT_KEYS.reduce((s, k) => s + raw[k], 0);
  const weights = Object.fromEntries(COMPONENT_KEYS.map((k) => [k, round3(raw[k] / sum)])) as Record<ComponentKey, number>;
  const largest = COMPONENT_KEYS.reduce((a, b) => (weights[b] > weights[a] ? b : a));
  weights[largest] = round3(1 - COMPONENT_KEYS.filter((k) => k !== largest).reduce((s, k) => s + weights[k], 0));
  return weights;
}

export function fitModel(samples: readonly CalibrationSample[]): Pick<FittedModel, 'component_weights' | 'size'> {
  const y = samples.map((s) => (s.label ? 1 : 0));
  const x1 = samples.map((s) => [...COMPONENT_KEYS.map((k) => logHealthOf(s.components[k])), logSize(s.units)]);
  const z1 = standardize(x1);
  const fit1 = unstandardize(fitLogistic(z1.z, y, { nonNegative: x1[0].map(() => true) }), z1.mean, z1.sd);
  const raw = Object.fromEntries(COMPONENT_KEYS.map((k, j) => [k, fit1.coefficients[j]])) as Record<ComponentKey, number>;
  if (COMPONENT_KEYS.every((k) => raw[k] === 0)) throw new Error('calibration: no component ranks the outcomes; the weights cannot be fitted');
  const weights = roundedWeights(raw);

  const x2 = samples.map((s) => {
    const combined = COMPONENT_KEYS.reduce((sum, k) => sum + weights[k] * logHealthOf(s.components[k]), 0);
    return [Math.log(Math.max(combined, LOG_HEALTH_FLOOR)), logSize(s.units)];
  });
  const z2 = standardize(x2);
  const fit2 = unstandardize(fitLogistic(z2.z, y, { nonNegative: [true, true] }), z2.mean, z2.sd);
  const exponent = fit2.coefficients[0] > 0 ? round3(fit2.coefficients[1] / fit2.coefficients[0]) : 0;
  return { component_weights: weights, size: { exponent, from_units: FITTED_MODEL.size.from_units } };
}

/** Fits on the earliest cut date of the samples. */
export function calibrate(samples: readonly CalibrationSample[]): CalibrationResult {
  const cuts = [...new Set(samples.map((s) => s.cut))].sort();
  const fittedOn = cuts[0];
  const training = samples.filter((s) => s.cut === fittedOn);
  return {
    fitted_on: fittedOn,
    samples: training.length,
    positives: training.filter((s) => s.label).length,
    current: { component_weights: { ...FITTED_MODEL.component_weights }, size: { ...FITTED_MODEL.size } },
    fitted: fitModel(training),
  };
}

/** The total a model gives a sample before the public anchors (what the fit ranks by). */
export function candidateTotal(sample: Pick<CalibrationSample, 'components' | 'units'>, model: Pick<FittedModel, 'component_weights' | 'size'>): number {
  return combineComponents(sample.components, sample.units, model);
}

/**
 * The component scores of buildings of 3+ units stored for each cut date, labelled by `labelOf` (a serious
 * outcome in the 12 months after the cut; public housing left out, as in the backtest).
 */
export async function calibrationSamples(
  pool: Pool,
  scorerId: string,
  cuts: readonly string[],
  labelOf: (bbl: string, cut: string) => boolean | undefined,
): Promise<CalibrationSample[]> {
  const { rows } = await pool.query<{ bbl: string; as_of: string; components: Record<ComponentKey, number>; units: number }>(
    `SELECT h.bbl, to_char(h.as_of, 'YYYY-MM-DD') AS as_of, h.components, GREATEST(b.residential_units, COALESCE(b.hpd_legal_units, 0))::int AS units
       FROM score_history h JOIN buildings b ON b.bbl = h.bbl
      WHERE h.scorer_id = $1 AND h.as_of = ANY($2::date[]) AND GREATEST(b.residential_units, COALESCE(b.hpd_legal_units, 0)) >= 3
      ORDER BY h.as_of, h.bbl`,
    [scorerId, cuts],
  );
  const publicHousing = await publicHousingBbls(pool);
  return rows.flatMap((r) => {
    const label = labelOf(r.bbl, r.as_of);
    if (label === undefined || publicHousing.has(r.bbl)) return [];
    return [{ bbl: r.bbl, cut: r.as_of, units: r.units, components: r.components, label }];
  });
}
