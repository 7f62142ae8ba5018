import { CATEGORIES, SEVERITIES } from '@bhis/domain';
import { AGE_BUCKETS, ageBucketIndex, bucketsWithin } from './age-buckets';
import { COMPONENT_MODELS } from './components';
import { COMPLAINT_TYPES } from './features';
import { HistogramRow } from './input';
import { RowSignal } from './signals';
import { FITTED_MODEL } from './fitted-model';

/** A row signal turned into lookup tables, so scoring a cell is a handful of array reads. */
interface CompiledSignal {
  readonly spec: RowSignal;
  readonly slot: number;
  /** 1 per CATEGORIES index when counted; null = every category. */
  readonly categories: Uint8Array | null;
  /** Multiplier per SEVERITIES index (0 = not counted). */
  readonly severity: Float64Array;
  readonly status: RowSignal['status'];
  /** Decay weight per AGE_BUCKETS index (0 outside the signal's window). */
  readonly bucketWeights: Float64Array;
  readonly amount: boolean;
}

const CATEGORY_INDEX: Readonly<Record<string, number>> = Object.fromEntries(CATEGORIES.map((c, i) => [c, i]));
const SEVERITY_INDEX: Readonly<Record<string, number>> = Object.fromEntries(SEVERITIES.map((s, i) => [s, i]));

function compile(spec: RowSignal, slot: number, halfLifeFactor: number): CompiledSignal {
  let categories: Uint8Array | null = null;
  if (spec.categories) {
    categories = new Uint8Array(CATEGORIES.length);
    for (const category of spec.categories) categories[CATEGORY_INDEX[category]] = 1;
  }
  const severity = new Float64Array(SEVERITIES.length);
  SEVERITIES.forEach((s, i) => (severity[i] = spec.severity[s] ?? 0));
  const firstBucket = spec.min_age_months === undefined ? 0 : bucketsWithin(spec.min_age_months);
  const lastBucket = spec.window_months === undefined ? AGE_BUCKETS.length : bucketsWithin(spec.window_months);
  const bucketWeights = new Float64Array(AGE_BUCKETS.length);
  AGE_BUCKETS.forEach((bucket, i) => {
    const inWindow = i >= firstBucket && i < lastBucket;
    bucketWeights[i] = inWindow ? Math.pow(0.5, bucket.representative_years / (spec.half_life_years * halfLifeFactor)) : 0;
  });
  return { spec, slot, categories, severity, status: spec.status, bucketWeights, amount: spec.measure === 'amount' };
}

/** Every row signal of every component, in component order; a signal's slot is its index here. */
export const ROW_SIGNALS: readonly { component: number; spec: RowSignal }[] = COMPONENT_MODELS.flatMap((model, component) =>
  model.signals.map((spec) => ({ component, spec })),
);

/**
 * The compiled signals by event type for a factor on every half-life (the fitted `half_life_factor`;
 * calibration compiles others to compare them).
 */
const ENGINES = new Map<number, ReadonlyMap<string, readonly CompiledSignal[]>>();

function engineFor(halfLifeFactor: number): ReadonlyMap<string, readonly CompiledSignal[]> {
  const hit = ENGINES.get(halfLifeFactor);
  if (hit !== undefined) return hit;
  const byType = new Map<string, CompiledSignal[]>();
  ROW_SIGNALS.forEach(({ spec }, slot) => {
    const compiled = compile(spec, slot, halfLifeFactor);
    for (const type of spec.event_types) {
      const list = byType.get(type) ?? [];
      list.push(compiled);
      byType.set(type, list);
    }
  });
  ENGINES.set(halfLifeFactor, byType);
  return byType;
}

export interface SignalTotals {
  /** Decayed, severity-weighted count (or amount in $1,000) per slot, before weight and normalization. */
  readonly weighted: Float64Array;
  /** Plain event count per slot. */
  readonly counts: Float64Array;
  /** Histogram cells that fed each slot (for the explanation's event ids). */
  readonly rows: (HistogramRow[] | undefined)[];
}

/**
 * One pass over the histogram. Fire and scoring-excluded cells never feed a signal. `spread`: every
 * count of confirmed records moved by one Poisson standard deviation (sqrt of the count) down (-1) or
 * up (1), for the confidence interval. Tenant reports stay as they are: their noise is the reporting
 * process, which the area propensity measures, and a single new complaint must not change how sure
 * the score is.
 */
export function accumulateSignals(
  histogram: readonly HistogramRow[],
  spread: -1 | 0 | 1 = 0,
  halfLifeFactor: number = FITTED_MODEL.half_life_factor,
): SignalTotals {
  const signalsByEventType = engineFor(halfLifeFactor);
  const weighted = new Float64Array(ROW_SIGNALS.length);
  const counts = new Float64Array(ROW_SIGNALS.length);
  const rows: (HistogramRow[] | undefined)[] = new Array(ROW_SIGNALS.length);
  for (const row of histogram) {
    if (row.scoring_excluded || row.category === 'fire') continue;
    const candidates = signalsByEventType.get(row.event_type);
    if (candidates === undefined) continue;
    const bucket = ageBucketIndex(row.age_bucket);
    const category = CATEGORY_INDEX[row.category];
    const severityIndex = SEVERITY_INDEX[row.severity];
    let count = row.count;
    let amount = row.amount;
    if (spread !== 0 && !COMPLAINT_TYPES.has(row.event_type)) {
      count = Math.max(0, row.count + spread * Math.sqrt(row.count));
      amount = row.amount * (count / row.count);
    }
    for (const signal of candidates) {
      if (signal.status === 'open' ? !row.open : signal.status === 'closed' && row.open) continue;
      if (signal.categories !== null && signal.categories[category] !== 1) continue;
      const factor = signal.severity[severityIndex] * signal.bucketWeights[bucket];
      if (factor === 0) continue;
      const quantity = signal.amount ? amount / 1000 : count;
      weighted[signal.slot] += quantity * factor;
      counts[signal.slot] += count;
      const fed = rows[signal.slot];
      if (fed === undefined) rows[signal.slot] = [row];
      else fed.push(row);
    }
  }
  return { weighted, counts, rows };
}
