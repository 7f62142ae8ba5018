import { ComponentKey, Grade } from '@bhis/domain';
import { COMPLAINT_BURDEN, COMPONENT_MODELS, DEFERRED_MAINTENANCE, MANAGEMENT_QUALITY } from './components';
import { clamp, round1, saturate } from './curves';
import { DerivedValue, registrationPoints, reinvestmentCredit, uncorrectedSharePoints } from './derived-signals';
import { EXPLANATION_TOP_N, SignalExplanation, newestEventIds } from './explanation';
import { BuildingFeatures } from './features';
import { gradeOf } from './grades';
import { BuildingInput, HistogramRow } from './input';
import { AREA_PROPENSITY_BOUNDS, PEER_COMPLAINT_RATE_PRIOR, sizeBandOf } from './peer-groups';
import { ROW_SIGNALS, SignalTotals } from './signal-engine';
import { Normalization } from './signals';
import { steadyStateExposure } from './unit-rates';
import { FITTED_MODEL } from './fitted-model';

export interface ComponentResult {
  score: number;
  grade: Grade;
  /** The component's index after the reinvestment credit. */
  index: number;
  explanation: SignalExplanation[];
}

interface Part {
  signal: string;
  description: string;
  points: number;
  count: number;
  rows: readonly HistogramRow[] | undefined;
}


export function areaPropensity(input: BuildingInput): number {
  const value = input.context?.area_complaint_propensity;
  return value == null ? 1 : clamp(value, AREA_PROPENSITY_BOUNDS.min, AREA_PROPENSITY_BOUNDS.max);
}

/** Steady-state decayed complaint index of a building complaining at its peer rate (at the signals' half-life factor). */
export function peerComplaintIndex(input: BuildingInput, features: BuildingFeatures, halfLifeFactor: number = FITTED_MODEL.half_life_factor): number {
  const rate = input.context?.peer_complaint_rate ?? PEER_COMPLAINT_RATE_PRIOR[sizeBandOf(features.units)];
  return rate * steadyStateExposure(COMPLAINT_BURDEN.signals[0].half_life_years * halfLifeFactor);
}

function denominator(normalization: Normalization, features: BuildingFeatures, propensity: number): number {
  switch (normalization) {
    case 'per_unit':
      return features.rate_units;
    case 'complaints_per_unit':
      return features.rate_units * propensity;
    case 'per_building':
      return 1;
  }
}

function derivedPart(key: string, value: DerivedValue | null, description: string): Part | null {
  if (value === null || value.points <= 0) return null;
  return { signal: key, description, points: value.points, count: value.count, rows: value.rows };
}

function explain(parts: Part[], index: number, score: number, credit: Part | null, scoreBeforeCredit: number): SignalExplanation[] {
  const ranked = parts.filter((part) => part.points > 0).sort((a, b) => b.points - a.points || (a.signal < b.signal ? -1 : 1));
  const out: SignalExplanation[] = ranked.slice(0, EXPLANATION_TOP_N).map((part) => ({
    signal: part.signal,
    description: part.description,
    contribution: round1((part.points / index) * scoreBeforeCredit),
    count: part.count,
    event_ids: newestEventIds(part.rows),
  }));
  if (credit !== null && scoreBeforeCredit - score >= 0.05) {
    out.push({
      signal: credit.signal,
      description: credit.description,
      contribution: round1(score - scoreBeforeCredit),
      count: credit.count,
      event_ids: newestEventIds(credit.rows),
    });
  }
  return out;
}

/**
 * `explained`: false leaves the explanations empty, for scores that only need the figures;
 * `halfLifeFactor`: the one `totals` were accumulated with (calibration compares several).
 */
export function scoreComponents(
  input: BuildingInput,
  features: BuildingFeatures,
  totals: SignalTotals,
  explained = true,
  halfLifeFactor: number = FITTED_MODEL.half_life_factor,
): Record<ComponentKey, ComponentResult> {
  const propensity = areaPropensity(input);
  const parts: Part[][] = COMPONENT_MODELS.map(() => []);
  ROW_SIGNALS.forEach(({ component, spec }, slot) => {
    const weighted = totals.weighted[slot];
    if (weighted <= 0) return;
    const points = Math.min(spec.cap, (spec.weight * weighted) / denominator(spec.normalization, features, propensity));
    parts[component].push({ signal: spec.key, description: spec.description, points, count: totals.counts[slot], rows: totals.rows[slot] });
  });

  const result = {} as Record<ComponentKey, ComponentResult>;
  COMPONENT_MODELS.forEach((model, i) => {
    const own = parts[i];
    if (model === MANAGEMENT_QUALITY) {
      const [registration, uncorrected] = MANAGEMENT_QUALITY.derived;
      const a = derivedPart(registration.key, registrationPoints(features), registration.description);
      const b = derivedPart(uncorrected.key, uncorrectedSharePoints(features), uncorrected.description);
      if (a) own.push(a);
      if (b) own.push(b);
    }
    let index = 0;
    for (const part of own) index += part.points;

    let credit: Part | null = null;
    let creditFactor = 1;
    if (model === DEFERRED_MAINTENANCE && index > 0) {
      const reinvestment = reinvestmentCredit(input.histogram, features.rate_units);
      if (reinvestment.credit > 0) {
        const spec = DEFERRED_MAINTENANCE.derived[0];
        creditFactor = 1 - reinvestment.credit;
        credit = { signal: spec.key, description: spec.description, points: 0, count: reinvestment.count, rows: reinvestment.rows };
      }
    }
    const scale = model.scale_mode === 'peer_complaint_rate' ? model.scale * peerComplaintIndex(input, features, halfLifeFactor) : model.scale;
    const scoreBeforeCredit = saturate(index, scale);
    const finalIndex = index * creditFactor;
    const score = round1(saturate(finalIndex, scale));
    result[model.key] = {
      score,
      grade: gradeOf(score),
      index: finalIndex,
      explanation: explained && index > 0 ? explain(own, index, score, credit, scoreBeforeCredit) : [],
    };
  });
  return result;
}
