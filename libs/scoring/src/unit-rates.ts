import { AGE_BUCKETS, decayWeight } from './age-buckets';
import { BuildingFacts } from './input';

/**
 * Rates are per residential unit with a floor of 3 units: a record at a one- or two-family home counts
 * as a third of a record per unit rather than a whole one (a small denominator would otherwise turn
 * single events into extreme rates), while from 3 units up the rate is the plain per-unit rate, so a
 * building's size alone never moves its score.
 */
export const MIN_RATE_UNITS = 3;

/**
 * Tested bound: a building of 20+ units and one ten times bigger with the same per-unit rates (and the
 * same building-level records) have components at most this many points apart. The residual comes from the
 * peer complaint rates, which differ by size band, and grows with the shorter memory of the fitted
 * half-life factor (a recent complaint weighs more against a smaller steady-state exposure).
 */
export const SIZE_NEUTRALITY_TOLERANCE = 5;

/** Residential units: the larger of PLUTO's count and HPD's legal units (0 when both are unknown). */
export function unitsOf(facts: BuildingFacts): number {
  return Math.max(facts.residential_units, facts.hpd_legal_units ?? 0);
}

export function rateUnitsOf(units: number): number {
  return Math.max(units, MIN_RATE_UNITS);
}

/** Assumed length of the history in the open-ended `5y+` bucket when converting a yearly rate. */
const OLDEST_BUCKET_YEARS = 5;

/**
 * The decayed count a steady rate of one event per year leaves in the histogram under the given
 * half-life: converts a yearly peer rate into the units of a decayed signal.
 */
export function steadyStateExposure(halfLifeYears: number): number {
  let exposure = 0;
  for (const bucket of AGE_BUCKETS) {
    if (bucket.min_months === null) continue;
    const widthYears = bucket.max_months === null ? OLDEST_BUCKET_YEARS : (bucket.max_months - bucket.min_months) / 12;
    exposure += widthYears * decayWeight(bucket.key, halfLifeYears);
  }
  return exposure;
}
