import type { Pool } from 'pg';
import { COMPONENT_KEYS, ComponentKey } from '@bhis/domain';
import { COMPONENT_WEIGHTS } from '@bhis/scoring';
import { auc } from './validation-metrics';
import { publicHousingBbls, TruthRow, UNIT_BANDS } from './validation';

/**
 * Calibration of the component weights on the synthetic city: the weights of the total's combination
 * are fitted to rank the truth file's serious outcomes within unit bands at the earliest cut date, then
 * checked on the later cut dates they were not fitted on. Reproducible: `bhis validate --calibrate`.
 */
export interface CalibrationSample {
  cut: string;
  band: string;
  components: Record<ComponentKey, number>;
  label: boolean;
}

export interface CalibrationResult {
  fitted_on: string;
  current: Record<ComponentKey, number>;
  fitted: Record<ComponentKey, number>;
  /** Mean within-band AUC by cut date, with the current and the fitted weights. */
  by_cut: { cut: string; current: number; fitted: number }[];
}

const BAND_OF = (units: number): string => UNIT_BANDS.find((band) => units >= band.min && units <= band.max)?.key ?? '50+';

function meanBandAuc(samples: readonly CalibrationSample[], weights: Record<ComponentKey, number>): number {
  const byBand = new Map<string, CalibrationSample[]>();
  for (const s of samples) byBand.set(s.band, [...(byBand.get(s.band) ?? []), s]);
  const values: number[] = [];
  for (const list of byBand.values()) {
    const value = auc(list.map((s) => combineWith(s.components, weights)), list.map((s) => s.label));
    if (Number.isFinite(value)) values.push(value);
  }
  return values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;
}

function combineWith(components: Record<ComponentKey, number>, weights: Record<ComponentKey, number>): number {
  let logHealth = 0;
  for (const key of COMPONENT_KEYS) logHealth += weights[key] * Math.log1p(-Math.min(components[key], 99.9) / 100);
  return 100 * (1 - Math.exp(logHealth));
}

/** Coordinate ascent on the simplex of weights, steps halving from 0.05 to 0.005. */
export function fitComponentWeights(samples: readonly CalibrationSample[], start: Record<ComponentKey, number> = { ...COMPONENT_WEIGHTS }) {
  let weights = { ...start };
  let best = meanBandAuc(samples, weights);
  for (let step = 0.05; step >= 0.005; step /= 2) {
    for (let improved = true; improved; ) {
      improved = false;
      for (const key of COMPONENT_KEYS) {
        for (const delta of [step, -step]) {
          const next = { ...weights, [key]: Math.max(0, weights[key] + delta) };
          const sum = COMPONENT_KEYS.reduce((s, k) => s + next[k], 0);
          for (const k of COMPONENT_KEYS) next[k] = Math.round((next[k] / sum) * 1000) / 1000;
          const value = meanBandAuc(samples, next);
          if (value > best + 1e-4) {
            best = value;
            weights = next;
            improved = true;
          }
        }
      }
    }
  }
  return { weights, objective: best };
}

export function calibrate(samples: readonly CalibrationSample[]): CalibrationResult {
  const cuts = [...new Set(samples.map((s) => s.cut))].sort();
  const fittedOn = cuts[0];
  const { weights } = fitComponentWeights(samples.filter((s) => s.cut === fittedOn));
  const current = { ...COMPONENT_WEIGHTS };
  const round3 = (x: number) => Math.round(x * 1000) / 1000;
  return {
    fitted_on: fittedOn,
    current,
    fitted: weights,
    by_cut: cuts.map((cut) => {
      const atCut = samples.filter((s) => s.cut === cut);
      return { cut, current: round3(meanBandAuc(atCut, current)), fitted: round3(meanBandAuc(atCut, weights)) };
    }),
  };
}

/** The component scores of buildings of 3+ units stored for each cut date, labelled from the truth file (public housing left out, as in the backtest). */
export async function calibrationSamples(pool: Pool, scorerId: string, cuts: readonly string[], truth: Map<string, TruthRow>): Promise<CalibrationSample[]> {
  const { rows } = await pool.query<{ bbl: string; as_of: string; components: Record<ComponentKey, number>; units: number }>(
    `SELECT h.bbl, to_char(h.as_of, 'YYYY-MM-DD') AS as_of, h.components, GREATEST(b.residential_units, COALESCE(b.hpd_legal_units, 0))::int AS units
       FROM score_history h JOIN buildings b ON b.bbl = h.bbl
      WHERE h.scorer_id = $1 AND h.as_of = ANY($2::date[]) AND GREATEST(b.residential_units, COALESCE(b.hpd_legal_units, 0)) >= 3`,
    [scorerId, cuts],
  );
  const plusYear = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 365 * 86_400_000).toISOString().slice(0, 10);
  const publicHousing = await publicHousingBbls(pool);
  return rows
    .filter((r) => truth.has(r.bbl) && !publicHousing.has(r.bbl))
    .map((r) => {
      const until = plusYear(r.as_of);
      const days = truth.get(r.bbl)?.seriousDays ?? [];
      return { cut: r.as_of, band: BAND_OF(r.units), components: r.components, label: days.some((d) => d > r.as_of && d <= until) };
    });
}
