import { CATEGORIES, EVENT_TYPES, SEVERITIES } from '@bhis/domain';
import fc from 'fast-check';
import { AGE_BUCKET_KEYS } from './age-buckets';
import { HistogramRow } from './input';
import { cell } from './test-support';

/** fast-check arbitraries of model inputs, for the property specs. */

export const ageBucketArb = fc.constantFrom(...AGE_BUCKET_KEYS);

export const rowArb: fc.Arbitrary<HistogramRow> = fc
  .record({
    event_type: fc.constantFrom(...EVENT_TYPES),
    category: fc.constantFrom(...CATEGORIES),
    severity: fc.constantFrom(...SEVERITIES),
    open: fc.boolean(),
    scoring_excluded: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
    age_bucket: ageBucketArb,
    count: fc.integer({ min: 1, max: 40 }),
    amount: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 50_000 })),
  })
  .map((fields) => cell({ ...fields, newest_event_ids: ['1'] }));

export const histogramArb = fc.array(rowArb, { maxLength: 25 });

export const unitsArb = fc.integer({ min: 0, max: 400 });
