import { ComponentKey, EventCategory, EventType, Severity } from '@bhis/domain';

/** How a signal's weighted count is turned into a rate. */
export type Normalization =
  /** divided by the building's rate units (see unit-rates.ts) */
  | 'per_unit'
  /** a building-level state (an order, a lawsuit, a lien listing): not divided */
  | 'per_building'
  /** tenant reports: divided by rate units and by the area complaint propensity */
  | 'complaints_per_unit';

export type StatusFilter = 'open' | 'closed' | 'any';

/** Multiplier per severity; a severity left out is not counted by the signal. */
export type SeverityWeights = Readonly<Partial<Record<Severity, number>>>;

/** Confirmed violations: HPD class C is `critical`, B `high`, A `medium`; class I (`info`) is paperwork. */
export const VIOLATION_SEVERITY: SeverityWeights = { critical: 3, high: 2, medium: 1, low: 0.5 };
/** Reports (complaints) are weighed by urgency with a narrower spread: they are not confirmed. */
export const REPORT_SEVERITY: SeverityWeights = { critical: 1.5, high: 1.25, medium: 1, low: 0.75, info: 0.5 };
/** Orders, filings and listings whose existence is the signal. */
export const ANY_SEVERITY: SeverityWeights = { critical: 1, high: 1, medium: 1, low: 1, info: 1 };
/** Inspections and filings with a pass/fail outcome: passing results are `info` and not counted. */
export const ADVERSE_SEVERITY: SeverityWeights = { critical: 1.5, high: 1, medium: 0.5 };
/** Open HPD class B and C violations only. */
export const CLASS_BC_SEVERITY: SeverityWeights = { critical: 1.5, high: 1 };
/** FISP facade filings: UNSAFE is `critical`, No Report Filed `high`, SWARMP `medium`, SAFE `info`. */
export const FACADE_SEVERITY: SeverityWeights = { critical: 1, high: 0.6, medium: 0.2 };

/** Tax lien sale list cycles: 10-day and final notices `high`, 60/30-day `medium`, 90-day `low`. */
export const TAX_LIEN_SEVERITY: SeverityWeights = { critical: 1.5, high: 1.5, medium: 1, low: 0.6, info: 0.6 };

/** HPD litigation: 7A administrators `critical`; harassment, comprehensive and CONH cases `high`; others lower. */
export const LITIGATION_SEVERITY: SeverityWeights = { critical: 1.5, high: 1.2, medium: 1, low: 0.8, info: 0.8 };

/** The named severity weight sets, for the methodology. */
export const SEVERITY_WEIGHT_SETS: readonly { name: string; weights: SeverityWeights; use: string }[] = [
  { name: 'violation', weights: VIOLATION_SEVERITY, use: 'confirmed violations (HPD class C critical, B high, A medium; class I not counted)' },
  { name: 'report', weights: REPORT_SEVERITY, use: 'complaints: reports, weighed by urgency with a narrow spread' },
  { name: 'any', weights: ANY_SEVERITY, use: 'orders, filings, listings, evictions: existence is the signal' },
  { name: 'adverse', weights: ADVERSE_SEVERITY, use: 'inspections with pass/fail outcomes (passing = info, not counted)' },
  { name: 'class-bc', weights: CLASS_BC_SEVERITY, use: 'HPD class B/C violations only' },
  { name: 'facade', weights: FACADE_SEVERITY, use: 'FISP filings: UNSAFE critical, No Report Filed high, SWARMP medium' },
  { name: 'tax-lien', weights: TAX_LIEN_SEVERITY, use: 'tax lien sale list cycles: later notices weigh more' },
  { name: 'litigation', weights: LITIGATION_SEVERITY, use: 'HPD housing litigation' },
];

/** One row-based signal: a weighted, decayed count (or amount) of matching histogram cells. */
export interface RowSignal {
  key: string;
  description: string;
  event_types: readonly EventType[];
  /** Categories counted; all when absent. `fire` and scoring-excluded cells are never counted. */
  categories?: readonly EventCategory[];
  severity: SeverityWeights;
  status: StatusFilter;
  /** `amount` counts dollars in thousands (the cells' `amount`), `count` counts events. */
  measure: 'count' | 'amount';
  /** Index points per event (or per $1,000) per normalization unit, before decay and severity. */
  weight: number;
  half_life_years: number;
  /** Only events at least this old count (e.g. still open past the legal correction window). */
  min_age_months?: 3;
  /** Only events younger than this count. */
  window_months?: 12 | 24 | 60;
  normalization: Normalization;
  /** Upper bound of the signal's index points, so one kind of record cannot carry a component alone. */
  cap: number;
}

/** A signal computed from building facts or derived features rather than from one kind of cell. */
export interface DerivedSignalSpec {
  key: string;
  description: string;
  /** The exact rule, for the methodology. */
  rule: string;
}

export interface SignalContribution {
  signal: string;
  description: string;
  /** Index points (before the component's curve). */
  points: number;
  count: number;
  event_ids: string[];
}

export interface ComponentModel {
  key: ComponentKey;
  code: string;
  title: string;
  /** What the component measures, for the methodology. */
  purpose: string;
  /**
   * Index at which the component scores 63.2 (score = 100 * (1 - exp(-index / scale))).
   * `peer_complaint_rate` scales it by the peer complaint rate (complaint burden).
   */
  scale: number;
  scale_mode: 'fixed' | 'peer_complaint_rate';
  signals: readonly RowSignal[];
  derived: readonly DerivedSignalSpec[];
}
