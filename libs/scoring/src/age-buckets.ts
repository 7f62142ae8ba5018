import { addMonths } from './dates';

/**
 * Fixed age buckets of the event histogram, relative to `as_of`. The feature SQL must bucket with the
 * same bounds: use `ageBucketSql()` to generate the CASE expression, or `ageBucketOf()` in code.
 * An event belongs to a bucket when `as_of - max_months < occurred_on <= as_of - min_months`
 * (calendar months). Dates after `as_of` fall in the first bucket; events without a date in `undated`.
 */
export const AGE_BUCKETS = [
  { key: '0-3m', min_months: 0, max_months: 3, representative_years: 0.125 },
  { key: '3-6m', min_months: 3, max_months: 6, representative_years: 0.375 },
  { key: '6-12m', min_months: 6, max_months: 12, representative_years: 0.75 },
  { key: '1-2y', min_months: 12, max_months: 24, representative_years: 1.5 },
  { key: '2-3y', min_months: 24, max_months: 36, representative_years: 2.5 },
  { key: '3-5y', min_months: 36, max_months: 60, representative_years: 4 },
  { key: '5y+', min_months: 60, max_months: null, representative_years: 7 },
  // Treated as old: an undated record is most often a legacy one.
  { key: 'undated', min_months: null, max_months: null, representative_years: 7 },
] as const;

export type AgeBucket = (typeof AGE_BUCKETS)[number]['key'];
export const AGE_BUCKET_KEYS: readonly AgeBucket[] = AGE_BUCKETS.map((bucket) => bucket.key);

const BUCKET_INDEX: Readonly<Record<string, number>> = Object.fromEntries(AGE_BUCKET_KEYS.map((key, i) => [key, i]));

export function ageBucketIndex(bucket: AgeBucket): number {
  return BUCKET_INDEX[bucket] ?? AGE_BUCKETS.length - 1;
}

/** Number of leading buckets that make up the last `months` months (12 -> 3 buckets, 60 -> 6). */
export function bucketsWithin(months: 3 | 6 | 12 | 24 | 36 | 60): number {
  return AGE_BUCKETS.findIndex((bucket) => bucket.max_months === months) + 1;
}

/** The bucket of an event dated `occurredOn` (YYYY-MM-DD or null) as seen on `asOf`. */
export function ageBucketOf(occurredOn: string | null, asOf: string): AgeBucket {
  if (occurredOn === null) return 'undated';
  for (const bucket of AGE_BUCKETS) {
    if (bucket.max_months === null) return bucket.key;
    if (occurredOn > addMonths(asOf, -bucket.max_months)) return bucket.key;
  }
  return '5y+';
}

/**
 * The PostgreSQL CASE expression that puts `dateExpr` in its bucket as of `asOfExpr` (a date expression
 * or parameter such as `$1::date`), so the feature SQL and the model share one definition.
 */
export function ageBucketSql(dateExpr: string, asOfExpr: string): string {
  const arms = AGE_BUCKETS.filter((bucket) => bucket.max_months !== null).map(
    (bucket) => `WHEN ${dateExpr} > (${asOfExpr} - interval '${bucket.max_months} months')::date THEN '${bucket.key}'`,
  );
  return `CASE WHEN ${dateExpr} IS NULL THEN 'undated' ${arms.join(' ')} ELSE '5y+' END`;
}

/** Weight of an event in a bucket under exponential decay with the given half-life. */
export function decayWeight(bucket: AgeBucket, halfLifeYears: number): number {
  return Math.pow(0.5, AGE_BUCKETS[ageBucketIndex(bucket)].representative_years / halfLifeYears);
}
