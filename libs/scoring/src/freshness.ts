import { clamp } from './curves';
import { dayNumber } from './dates';
import { SourceFreshness, SourceFreshnessMap } from './input';
import { SOURCE_KEYS, SourceKey } from '@bhis/sources';

/**
 * Days a source may lag `as_of` before it counts as stale, by cadence: since its last refresh, and since
 * its newest record (publishers lag behind their own cadence).
 */
export const CADENCE_ALLOWANCES: Readonly<Record<string, { refresh_days: number; record_days: number }>> = {
  daily: { refresh_days: 3, record_days: 30 },
  weekly: { refresh_days: 10, record_days: 45 },
  monthly: { refresh_days: 45, record_days: 120 },
  quarterly: { refresh_days: 120, record_days: 270 },
  yearly: { refresh_days: 400, record_days: 730 },
  per_sale: { refresh_days: 400, record_days: 540 },
  rarely: { refresh_days: 400, record_days: Number.POSITIVE_INFINITY },
  static: { refresh_days: Number.POSITIVE_INFINITY, record_days: Number.POSITIVE_INFINITY },
};
const DEFAULT_CADENCE = 'monthly';
/** Freshness falls linearly from 1 at the allowance to 0 at this many times the allowance. */
export const STALE_TO_ZERO_FACTOR = 4;

function ageScore(ageDays: number, allowedDays: number): number {
  if (ageDays <= allowedDays) return 1;
  return clamp(1 - (ageDays - allowedDays) / ((STALE_TO_ZERO_FACTOR - 1) * allowedDays), 0, 1);
}

export function cadenceAllowance(cadence: string): { refresh_days: number; record_days: number } {
  return CADENCE_ALLOWANCES[cadence.trim().toLowerCase()] ?? CADENCE_ALLOWANCES[DEFAULT_CADENCE];
}

/** Freshness of one source on `asOf`, 0-1; 0 when the source was never loaded. */
export function sourceFreshness(info: SourceFreshness | undefined, asOf: string): number {
  if (info === undefined || info.last_refreshed_at === null) return 0;
  const allowance = cadenceAllowance(info.cadence);
  const today = dayNumber(asOf);
  let score = ageScore(today - dayNumber(info.last_refreshed_at), allowance.refresh_days);
  if (info.latest_record_date !== null) {
    score = Math.min(score, ageScore(today - dayNumber(info.latest_record_date), allowance.record_days));
  }
  return Number.isNaN(score) ? 0 : score;
}

/** Per-source freshness is the same for every building of a run: computed once per sources object and date. */
const cache = new WeakMap<SourceFreshnessMap, { asOf: string; values: Readonly<Record<SourceKey, number>> }>();

export function freshnessBySource(sources: SourceFreshnessMap, asOf: string): Readonly<Record<SourceKey, number>> {
  const hit = cache.get(sources);
  if (hit !== undefined && hit.asOf === asOf) return hit.values;
  const values = {} as Record<SourceKey, number>;
  for (const key of SOURCE_KEYS) values[key] = sourceFreshness(sources[key], asOf);
  cache.set(sources, { asOf, values });
  return values;
}

/**
 * The state of a source on a day, the one rule behind both `GET /api/v1/sources` and the building's
 * `stale-source:<key>` flags:
 * - `failing`: its last refresh failed (`failing_since` is set), whatever the age of the data it keeps;
 * - `never_loaded`: no refresh ever succeeded;
 * - `late`: its last successful refresh is older than its cadence's `refresh_days`;
 * - `ok`: none of these.
 * How old its newest record is (`records_behind`: older than `record_days`) is reported beside the
 * state and weighs on the freshness score, but does not decide the state: a sparse source (a few UCP
 * orders a year on a small city) has no record for months while it is refreshed every day.
 */
export const SOURCE_STATES = ['ok', 'late', 'failing', 'never_loaded'] as const;
export type SourceState = (typeof SOURCE_STATES)[number];

export interface SourceStanding {
  state: SourceState;
  /** Not refreshed within its cadence's allowance, or never loaded (what `is_late` says). */
  late: boolean;
  /** Its newest record is older than its cadence's record allowance. */
  records_behind: boolean;
}

export function sourceStanding(info: SourceFreshness | undefined, asOf: string): SourceStanding {
  const failing = (info?.failing_since ?? null) !== null;
  if (info === undefined || info.last_refreshed_at === null) return { state: failing ? 'failing' : 'never_loaded', late: true, records_behind: false };
  const allowance = cadenceAllowance(info.cadence);
  const today = dayNumber(asOf);
  const late = !(today - dayNumber(info.last_refreshed_at) <= allowance.refresh_days);
  const recordsBehind = info.latest_record_date !== null && !(today - dayNumber(info.latest_record_date) <= allowance.record_days);
  return { state: failing ? 'failing' : late ? 'late' : 'ok', late, records_behind: recordsBehind };
}

const staleCache = new WeakMap<SourceFreshnessMap, { asOf: string; values: Readonly<Record<SourceKey, boolean>> }>();

/** Per source, whether it is not `ok` on `asOf` (`sourceStanding`): the sources a building's `stale-source:<key>` flags name. */
export function staleBySource(sources: SourceFreshnessMap, asOf: string): Readonly<Record<SourceKey, boolean>> {
  const hit = staleCache.get(sources);
  if (hit !== undefined && hit.asOf === asOf) return hit.values;
  const values = {} as Record<SourceKey, boolean>;
  for (const key of SOURCE_KEYS) values[key] = sourceStanding(sources[key], asOf).state !== 'ok';
  staleCache.set(sources, { asOf, values });
  return values;
}
