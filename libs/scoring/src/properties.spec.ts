import fc from 'fast-check';
import { COMPONENT_KEYS } from '@bhis/domain';
import { AGE_BUCKET_KEYS, AgeBucket } from './age-buckets';
import { CONFIDENCE_TIERS } from './confidence';
import { FITTED_MODEL } from './fitted-model';
import { BuildingInput, HistogramRow } from './input';
import { scoreBuilding } from './score-building';
import { CLASS_BC_SEVERITY } from './signals';
import { histogramArb, rowArb, unitsArb } from './test-arbitraries';
import { cell, input } from './test-support';
import { SIZE_NEUTRALITY_TOLERANCE as SIZE_TOLERANCE } from './unit-rates';


function withUnits(units: number, histogram: HistogramRow[], registered = true): BuildingInput {
  return input({
    histogram,
    facts: { residential_units: units, hpd_legal_units: units, registration_end_date: registered ? '2026-09-01' : null },
  });
}

describe('monotonicity', () => {
  it('adding an open class C violation never lowers total_score', () => {
    fc.assert(
      fc.property(histogramArb, unitsArb, fc.boolean(), rowArb, (histogram, units, registered, template) => {
        const before = scoreBuilding(withUnits(units, histogram, registered)).total_score;
        const added = cell({
          event_type: 'hpd_violation',
          severity: 'critical',
          open: true,
          scoring_excluded: false,
          category: template.category,
          age_bucket: template.age_bucket,
          count: 1,
        });
        const after = scoreBuilding(withUnits(units, [...histogram, added], registered)).total_score;
        expect(after).toBeGreaterThanOrEqual(before);
      }),
      { numRuns: 400 },
    );
  });

  it('adding any event never lowers a component beyond the reinvestment credit (permits)', () => {
    fc.assert(
      fc.property(histogramArb, unitsArb, rowArb, (histogram, units, extra) => {
        fc.pre(extra.event_type !== 'dob_job_filing' && extra.event_type !== 'dob_now_job_filing');
        // a corrected class B/C violation lowers the share left uncorrected (mq_uncorrected_share,
        // derived-signals.ts): a correction is evidence of management, by design
        fc.pre(!(extra.event_type === 'hpd_violation' && !extra.open && extra.severity in CLASS_BC_SEVERITY));
        const before = scoreBuilding(withUnits(units, histogram));
        const after = scoreBuilding(withUnits(units, [...histogram, extra]));
        expect(after.total_score).toBeGreaterThanOrEqual(before.total_score);
      }),
      { numRuns: 400 },
    );
  });

  it('moving events to a more recent age bucket never lowers total_score', () => {
    // Two exceptions by design: an open violation younger than 3 months is still inside its legal
    // correction window (not yet overdue for management quality), and job filings are a credit.
    const older = (a: AgeBucket, b: AgeBucket) => AGE_BUCKET_KEYS.indexOf(a) > AGE_BUCKET_KEYS.indexOf(b);
    fc.assert(
      fc.property(histogramArb, unitsArb, fc.nat(), fc.constantFrom(...AGE_BUCKET_KEYS), (histogram, units, pick, target) => {
        fc.pre(histogram.length > 0);
        const i = pick % histogram.length;
        const moved = histogram[i];
        fc.pre(older(moved.age_bucket, target));
        fc.pre(target !== '0-3m' || !moved.open || moved.event_type !== 'hpd_violation');
        // Recent job filings earn more reinvestment credit: they lower deferred maintenance by design.
        fc.pre(moved.event_type !== 'dob_job_filing' && moved.event_type !== 'dob_now_job_filing');
        const before = scoreBuilding(withUnits(units, histogram)).total_score;
        const next = histogram.map((row, j) => (j === i ? { ...row, age_bucket: target } : row));
        const after = scoreBuilding(withUnits(units, next)).total_score;
        expect(after).toBeGreaterThanOrEqual(before);
      }),
      { numRuns: 400 },
    );
  });

  it('a recent violation weighs more than the same violation five years ago', () => {
    const at = (bucket: AgeBucket) =>
      scoreBuilding(withUnits(30, [cell({ event_type: 'hpd_violation', severity: 'high', open: true, age_bucket: bucket, count: 20 })]));
    const ordered = AGE_BUCKET_KEYS.slice(1, 7).map((bucket) => at(bucket).components.living_conditions.score);
    for (let i = 1; i < ordered.length; i++) expect(ordered[i]).toBeLessThan(ordered[i - 1]);
  });
});

describe('size', () => {
  const perUnitRowArb = rowArb.map((row) => ({ ...row, count: Math.max(1, row.count % 6), amount: row.amount % 5000 }));

  it(`a building 10 times bigger with the same per-unit rates has components within ${SIZE_TOLERANCE} points, and a total raised only by the fitted size factor (20+ units)`, () => {
    fc.assert(
      fc.property(fc.array(perUnitRowArb, { maxLength: 15 }), fc.integer({ min: 20, max: 45 }), (rows, units) => {
        const small = scoreBuilding(withUnits(units, rows));
        // Counts and amounts scale with the units; building-level states (orders, listings, lawsuits) do not.
        const perBuilding = new Set([
          'hpd_litigation',
          'hpd_vacate_order',
          'dob_vacate_order',
          'fdny_vacate',
          'aep_enrollment',
          'aep_discharged',
          'ucp_order',
          'tax_lien_sale_listing',
          'rodent_inspection',
          'bedbug_filing',
          'facade_filing',
          'registration_filed',
        ]);
        const scaled = rows.map((row) =>
          perBuilding.has(row.event_type) ? row : { ...row, count: row.count * 10, amount: row.amount * 10 },
        );
        const big = scoreBuilding(input({ histogram: scaled, facts: { residential_units: units * 10, hpd_legal_units: units * 10 }, aggregates: { heat_season_complaints: 0 } }));
        for (const key of COMPONENT_KEYS) expect(Math.abs(big.components[key].score - small.components[key].score)).toBeLessThanOrEqual(SIZE_TOLERANCE);
        // the total multiplies the combined log-health by (units / 3) ^ exponent: the per-unit signal means more in a larger building
        const smallHealth = 1 - small.total_score / 100;
        const expected = 100 * (1 - Math.pow(smallHealth, Math.pow(10, FITTED_MODEL.size.exponent)));
        if (big.explanation.adjustments.length === 0 && small.explanation.adjustments.length === 0) {
          expect(Math.abs(big.total_score - expected)).toBeLessThanOrEqual(SIZE_TOLERANCE + 1);
        }
        expect(big.total_score).toBeGreaterThanOrEqual(small.total_score - SIZE_TOLERANCE);
      }),
      { numRuns: 300 },
    );
  });

  it('the same violations weigh less in a bigger building', () => {
    const rows = [cell({ event_type: 'hpd_violation', severity: 'high', open: true, age_bucket: '6-12m', count: 30 })];
    expect(scoreBuilding(withUnits(300, rows)).total_score).toBeLessThan(scoreBuilding(withUnits(30, rows)).total_score);
  });
});

describe('determinism and ranges', () => {
  it('is deterministic and stays in range', () => {
    fc.assert(
      fc.property(histogramArb, unitsArb, (histogram, units) => {
        const a = scoreBuilding(withUnits(units, histogram));
        const b = scoreBuilding(withUnits(units, histogram));
        expect(b).toEqual(a);
        expect(Number.isInteger(a.total_score)).toBe(true);
        expect(a.total_score).toBeGreaterThanOrEqual(0);
        expect(a.total_score).toBeLessThanOrEqual(100);
        for (const component of Object.values(a.components)) {
          expect(component.score).toBeGreaterThanOrEqual(0);
          expect(component.score).toBeLessThanOrEqual(100);
          expect(Math.round(component.score * 10) / 10).toBe(component.score);
        }
        expect(a.confidence.score).toBeGreaterThanOrEqual(0);
        expect(a.confidence.score).toBeLessThanOrEqual(1);
      }),
      { numRuns: 300 },
    );
  });

  it('ignores fire and scoring-excluded events in the score', () => {
    fc.assert(
      fc.property(histogramArb, rowArb, (histogram, extra) => {
        const excluded = { ...extra, scoring_excluded: true };
        const fire = { ...extra, category: 'fire' as const };
        const base = scoreBuilding(withUnits(30, histogram));
        expect(scoreBuilding(withUnits(30, [...histogram, excluded])).components).toEqual(base.components);
        expect(scoreBuilding(withUnits(30, [...histogram, fire])).components).toEqual(base.components);
      }),
      { numRuns: 200 },
    );
  });
});

describe('confidence and tenant reports', () => {
  const complaintArb = fc
    .record({
      event_type: fc.constantFrom('hpd_complaint' as const, 'complaint_311' as const, 'dob_complaint' as const),
      template: rowArb,
    })
    .map(({ event_type, template }) => cell({ event_type, category: template.category, severity: template.severity, open: template.open, age_bucket: template.age_bucket, count: 1 }));

  const tierRank = (tier: string) => CONFIDENCE_TIERS.findIndex((t) => t.tier === tier);

  it('one new complaint never raises confidence at all (score, tier or any dimension), in 1,000 random histories', () => {
    fc.assert(
      fc.property(histogramArb, unitsArb, fc.boolean(), complaintArb, (histogram, units, registered, complaint) => {
        const before = scoreBuilding(withUnits(units, histogram, registered)).confidence;
        const after = scoreBuilding(withUnits(units, [...histogram, complaint], registered)).confidence;
        expect(after.score).toBeLessThanOrEqual(before.score);
        expect(tierRank(after.tier)).toBeGreaterThanOrEqual(tierRank(before.tier));
        for (const key of ['coverage', 'freshness', 'corroboration', 'precision'] as const) {
          expect(after.dimensions[key]).toBeLessThanOrEqual(before.dimensions[key]);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
