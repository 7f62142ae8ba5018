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

/** Freshness of one source on `asOf`, 0-1; 0 when the source was never loaded. */
export function sourceFreshness(info: SourceFreshness | undefined, asOf: string): number {
  if (info === undefined || info.last_refreshed_at === null) return 0;
  const allowance = CADENCE_ALLOWANCES[info.cadence.trim().toLowerCase()] ?? CADENCE_ALLOWANCES[DEFAULT_CADENCE];
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
