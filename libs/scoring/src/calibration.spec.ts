import { CATEGORIES, EventType } from '@bhis/domain';
import fc from 'fast-check';
import { AgeBucket } from './age-buckets';
import { HistogramRow } from './input';
import { scoreBuilding } from './score-building';
import { ageBucketArb, rowArb } from './test-arbitraries';
import { cell, input } from './test-support';

const DISTRESSED = ['D', 'F'];
const WITHIN_5Y: AgeBucket[] = ['0-3m', '3-6m', '6-12m', '1-2y', '2-3y', '3-5y'];

function building(units: number, histogram: HistogramRow[], registration: string | null = '2026-09-01') {
  return input({ histogram, facts: { residential_units: units, hpd_legal_units: units, registration_end_date: registration } });
}

/** Open B/C violations spread over arbitrary buckets of the last 5 years and arbitrary categories. */
function openBcViolations(total: number, buckets: AgeBucket[], categories: (typeof CATEGORIES)[number][], critical: boolean[]): HistogramRow[] {
  const rows: HistogramRow[] = [];
  const parts = buckets.length;
  let left = total;
  buckets.forEach((bucket, i) => {
    const count = i === parts - 1 ? left : Math.floor(total / parts);
    left -= count;
    if (count > 0) {
      rows.push(cell({ event_type: 'hpd_violation', open: true, severity: critical[i] ? 'critical' : 'high', category: categories[i], age_bucket: bucket, count }));
    }
  });
  return rows;
}

const NON_FIRE_CATEGORIES = CATEGORIES.filter((c) => c !== 'fire');
const spreadArb = fc.array(
  fc.record({
    bucket: fc.constantFrom(...WITHIN_5Y),
    category: fc.constantFrom(...NON_FIRE_CATEGORIES),
    critical: fc.boolean(),
  }),
  { minLength: 1, maxLength: 6 },
);

describe('public anchor: HPD Alternative Enforcement Program selection criteria', () => {
  it('20+ units with 3 open B/C violations per unit in 5 years and $2,500 of emergency repairs grade D or F', () => {
    fc.assert(
      fc.property(fc.integer({ min: 20, max: 400 }), spreadArb, ageBucketArb, fc.array(rowArb, { maxLength: 8 }), (units, spread, repairBucket, noise) => {
        fc.pre(WITHIN_5Y.includes(repairBucket));
        const violations = openBcViolations(3 * units, spread.map((s) => s.bucket), spread.map((s) => s.category), spread.map((s) => s.critical));
        const repairs = cell({ event_type: 'emergency_repair_omo', category: 'plumbing', age_bucket: repairBucket, amount: 2500 });
        const score = scoreBuilding(building(units, [...violations, repairs, ...noise]));
        expect(DISTRESSED).toContain(score.grade);
        expect(score.flags).toContain('aep-criteria-met');
      }),
      { numRuns: 300 },
    );
  });

  it('3-19 units with 5 open B/C violations per unit in 5 years and $5,000 of emergency repairs grade D or F', () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 19 }), spreadArb, fc.array(rowArb, { maxLength: 8 }), (units, spread, noise) => {
        const violations = openBcViolations(5 * units, spread.map((s) => s.bucket), spread.map((s) => s.category), spread.map((s) => s.critical));
        const repairs = cell({ event_type: 'emergency_repair_hwo', category: 'heat_hot_water', age_bucket: '3-5y', amount: 5000 });
        expect(DISTRESSED).toContain(scoreBuilding(building(units, [...violations, repairs, ...noise])).grade);
      }),
      { numRuns: 300 },
    );
  });

  it('just below the criteria the floor does not apply', () => {
    const violations = [cell({ event_type: 'hpd_violation', open: true, severity: 'high', category: 'other', age_bucket: '3-5y', count: 59 })];
    const repairs = cell({ event_type: 'emergency_repair_omo', category: 'plumbing', age_bucket: '3-5y', amount: 2500 });
    const score = scoreBuilding(building(20, [...violations, repairs]));
    expect(score.flags).not.toContain('aep-criteria-met');
    expect(score.explanation.adjustments.map((a) => a.rule)).not.toContain('aep-criteria-floor');
  });

  it('a typical AEP building reaches D or F without the floor', () => {
    const rows = [
      cell({ event_type: 'hpd_violation', open: true, severity: 'high', category: 'water_damage', age_bucket: '6-12m', count: 40 }),
      cell({ event_type: 'hpd_violation', open: true, severity: 'critical', category: 'pests', age_bucket: '1-2y', count: 20 }),
      cell({ event_type: 'hpd_violation', open: true, severity: 'high', category: 'habitability', age_bucket: '3-5y', count: 30 }),
      cell({ event_type: 'emergency_repair_omo', category: 'plumbing', age_bucket: '1-2y', count: 3, amount: 4000 }),
      cell({ event_type: 'hpd_complaint', category: 'heat_hot_water', severity: 'high', age_bucket: '0-3m', count: 40 }),
    ];
    const score = scoreBuilding(building(30, rows));
    expect(DISTRESSED).toContain(score.grade);
    expect(score.explanation.adjustments).toEqual([]);
  });
});

describe('public anchor: a clean record is never D or F', () => {
  // Any history without open B/C violations, complaints in the last 12 months or an AEP enrollment.
  const cleanRowArb = rowArb.filter(
    (row) =>
      !(row.event_type === 'hpd_violation' && row.open && (row.severity === 'critical' || row.severity === 'high')) &&
      !(['hpd_complaint', 'complaint_311', 'dob_complaint'] as EventType[]).includes(row.event_type) &&
      row.event_type !== 'aep_enrollment',
  );
  const oldComplaintArb = fc.record({
    event_type: fc.constantFrom<EventType>('hpd_complaint', 'complaint_311', 'dob_complaint'),
    age_bucket: fc.constantFrom<AgeBucket>('1-2y', '2-3y', '3-5y', '5y+', 'undated'),
    count: fc.integer({ min: 1, max: 200 }),
  });

  it('with a valid registration (or none required) the grade is A, B or C', () => {
    fc.assert(
      fc.property(
        fc.array(cleanRowArb, { maxLength: 30 }),
        fc.array(oldComplaintArb, { maxLength: 5 }),
        fc.integer({ min: 0, max: 300 }),
        (rows, complaints, units) => {
          const history = [...rows, ...complaints.map((c) => cell({ ...c, category: 'heat_hot_water' }))];
          // Ranges that would trip a floor are part of the clean record's definition only through B/C counts.
          const score = scoreBuilding(building(units, history));
          expect(DISTRESSED).not.toContain(score.grade);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('a quiet, registered building grades A', () => {
    const rows = [
      cell({ event_type: 'hpd_violation', severity: 'high', age_bucket: '3-5y', count: 4 }),
      cell({ event_type: 'dob_job_filing', category: 'permit', severity: 'info', age_bucket: '1-2y' }),
    ];
    expect(scoreBuilding(building(30, rows)).grade).toBe('A');
  });
});

describe('public anchor: AEP enrollment', () => {
  it('an active AEP enrollment alone grades at least D', () => {
    const score = scoreBuilding(building(30, [cell({ event_type: 'aep_enrollment', category: 'enforcement_program', open: true, age_bucket: '1-2y' })]));
    expect(DISTRESSED).toContain(score.grade);
    expect(score.flags).toContain('aep-active');
  });

  it('a discharged enrollment does not hold the floor', () => {
    const score = scoreBuilding(building(30, [cell({ event_type: 'aep_enrollment', category: 'enforcement_program', open: false, age_bucket: '1-2y' })]));
    expect(DISTRESSED).not.toContain(score.grade);
  });
});

describe('archetypes', () => {
  it('order buildings from clean to distressed', () => {
    const perUnit = (openPerUnit: number) => [
      cell({ event_type: 'hpd_violation', open: true, severity: 'high', category: 'water_damage', age_bucket: '3-6m', count: Math.round(openPerUnit * 10) }),
      cell({ event_type: 'hpd_violation', open: true, severity: 'high', category: 'habitability', age_bucket: '1-2y', count: Math.round(openPerUnit * 10) }),
      cell({ event_type: 'hpd_violation', open: true, severity: 'critical', category: 'pests', age_bucket: '2-3y', count: Math.round(openPerUnit * 10) }),
      cell({ event_type: 'complaint_311', category: 'heat_hot_water', severity: 'medium', age_bucket: '6-12m', count: Math.round(openPerUnit * 20) + 1 }),
    ];
    const scores = [0.05, 0.2, 0.5, 2, 3].map((rate) => scoreBuilding(building(30, perUnit(rate))));
    for (let i = 1; i < scores.length; i++) expect(scores[i].total_score).toBeGreaterThan(scores[i - 1].total_score);
    expect(scores[0].grade).toBe('A');
    expect(scores[scores.length - 1].grade).toBe('F');
  });

  it('financial signals alone do not make a building distressed', () => {
    const rows = [
      cell({ event_type: 'tax_lien_sale_listing', category: 'financial', age_bucket: '0-3m', count: 3 }),
      cell({ event_type: 'ecb_violation', category: 'construction', severity: 'medium', open: true, age_bucket: '1-2y', amount: 40_000 }),
    ];
    const score = scoreBuilding(building(30, rows));
    expect(score.components.financial_distress.score).toBeGreaterThan(60);
    expect(DISTRESSED).not.toContain(score.grade);
  });

  it('fire vacates and FEMA repairs raise flags without moving the components; an active vacate holds the total at B', () => {
    const rows = [
      cell({ event_type: 'fdny_vacate', category: 'fire', open: true, age_bucket: '0-3m' }),
      cell({ event_type: 'hpd_vacate_order', category: 'fire', open: true, age_bucket: '0-3m' }),
      cell({ event_type: 'emergency_repair_omo', category: 'structural', scoring_excluded: true, age_bucket: '6-12m', amount: 90_000 }),
    ];
    const score = scoreBuilding(building(30, rows));
    expect(Object.values(score.components).every((c) => c.score === 0)).toBe(true);
    expect(score.total_score).toBe(15);
    expect(score.explanation.adjustments.map((a) => a.rule)).toEqual(['serious-hazard-floor']);
    expect(score.flags).toEqual(expect.arrayContaining(['fdny-vacate-active', 'hpd-vacate-active', 'fire-damage-recent', 'fema-repair']));
  });

});
