import { CONFIDENCE_TIERS, ConfidenceParts, confidenceOf, gradeMarginOf } from './confidence';
import { scoreBuilding } from './score-building';
import { cell, freshSources, input } from './test-support';

const house = { residential_units: 1, hpd_legal_units: null, building_class: 'A1', in_hpd_jurisdiction: false, registration_end_date: null };

describe('confidence', () => {
  it('is insufficient for a building without any record', () => {
    const score = scoreBuilding(input({ facts: house }));
    expect(score.confidence.tier).toBe('insufficient');
    expect(score.data_quality).toBe('minimal');
    expect(score.confidence.flags).toContain('sparse-data-small-building');
    expect(score.confidence.active_families).toBe(0);
    expect(score.confidence.primary_sources).toBe(1);
  });

  it('expects HPD families of a multiple dwelling, not of a house', () => {
    const rows = [
      cell({ event_type: 'dob_violation', category: 'construction', severity: 'medium', age_bucket: '2-3y' }),
      cell({ event_type: 'complaint_311', category: 'sanitation', severity: 'low', age_bucket: '2-3y' }),
    ];
    expect(scoreBuilding(input({ facts: house, histogram: rows })).confidence.dimensions.coverage).toBe(1);
    // hpd_violations, complaints, registrations, dob: the sources of 3 of 4 families loaded.
    const sources = { ...freshSources(), hpd_registrations: undefined, hpd_registration_contacts: undefined };
    expect(scoreBuilding(input({ histogram: rows, sources, facts: { residential_units: 10, hpd_legal_units: 10 } })).confidence.dimensions.coverage).toBe(0.75);
  });

  it('reports how many independent families of confirmed records agree, tenant reports left out', () => {
    const rows = [
      cell({ event_type: 'hpd_violation', category: 'water_damage', severity: 'high', open: true, age_bucket: '3-6m', count: 40 }),
      cell({ event_type: 'hpd_complaint', category: 'water_damage', severity: 'high', age_bucket: '3-6m', count: 12 }),
      cell({ event_type: 'dob_violation', category: 'plumbing', severity: 'high', open: true, age_bucket: '6-12m', count: 2 }),
      cell({ event_type: 'emergency_repair_omo', category: 'plumbing', age_bucket: '6-12m', amount: 2000 }),
      cell({ event_type: 'dob_job_filing', category: 'permit', severity: 'info', age_bucket: '1-2y' }),
    ];
    const confidence = scoreBuilding(input({ histogram: rows })).confidence;
    // hpd_violations, dob and emergency_repairs all point to distress
    expect(confidence.dimensions.corroboration).toBe(1);
    const withoutComplaints = scoreBuilding(input({ histogram: rows.filter((row) => row.event_type !== 'hpd_complaint') })).confidence;
    expect(withoutComplaints.dimensions.corroboration).toBe(confidence.dimensions.corroboration);
    // 5 event sources + PLUTO + HPD jurisdiction + HPD registrations
    expect(confidence.primary_sources).toBe(8);
  });

  it('is high for a quiet building with a confirmed record, far below the first cut-off', () => {
    const rows = [cell({ event_type: 'dob_violation', category: 'construction', severity: 'low', age_bucket: '2-3y' })];
    const score = scoreBuilding(input({ histogram: rows }));
    expect(score.grade).toBe('A');
    expect(score.total_score).toBeLessThan(5);
    expect(score.confidence.tier).toBe('high');
    expect(score.confidence.interval.low).toBeLessThanOrEqual(score.total_score);
    expect(score.confidence.interval.high).toBeGreaterThanOrEqual(score.total_score);
  });
  it('flags stale sources and lowers freshness', () => {
    const sources = { ...freshSources(), hpd_violations: { last_refreshed_at: '2025-01-02T00:00:00Z', latest_record_date: '2025-01-01', cadence: 'daily' } };
    const rows = [cell({ event_type: 'hpd_violation', category: 'water_damage', severity: 'high', age_bucket: '3-6m' })];
    const confidence = scoreBuilding(input({ histogram: rows, sources })).confidence;
    expect(confidence.flags).toEqual(expect.arrayContaining(['stale-source', 'stale-source:hpd_violations']));
    expect(confidence.dimensions.freshness).toBeLessThan(1);
  });

  it('flags lots with several buildings, missing registrations and complaint-only records', () => {
    const rows = [cell({ event_type: 'complaint_311', category: 'heat_hot_water', severity: 'medium', age_bucket: '0-3m' })];
    const confidence = scoreBuilding(input({ histogram: rows, facts: { num_buildings: 3, registration_end_date: null } })).confidence;
    expect(confidence.flags).toEqual(expect.arrayContaining(['multi-building-lot', 'no-registration', 'complaints-only']));
  });

  const model = { move: { base: 4, spread: 0.5, uncorroborated: 2 }, interval_multipliers: { high: 0.5, medium: 1.5, low: 2, insufficient: 1 } };
  const parts = (margin: number, more: Partial<ConfidenceParts> = {}): ConfidenceParts => ({
    coverage: 1,
    freshness: 1,
    corroboration: 1,
    total: 20,
    margin,
    confirmedSpread: 2,
    multiBuilding: false,
    lowest: false,
    ...more,
  });
  const rank = (tier: string) => CONFIDENCE_TIERS.findIndex((t) => t.tier === tier);

  it('is high when the total is far from its grade\'s cut-offs in expected moves, and never higher for a smaller margin', () => {
    // expected move 4 + 0.5 x 2 = 5 points: high from a margin of one expected move
    expect(confidenceOf(parts(5), model).tier).toBe('high');
    expect(confidenceOf(parts(4), model).tier).toBe('medium');
    for (let margin = -5; margin < 30; margin++) {
      const wider = confidenceOf(parts(margin + 1), model);
      const narrower = confidenceOf(parts(margin), model);
      expect(narrower.score).toBeLessThanOrEqual(wider.score);
      expect(rank(narrower.tier)).toBeGreaterThanOrEqual(rank(wider.tier));
    }
    // stale or missing sources and a known limit still cap the tier
    expect(confidenceOf(parts(30, { freshness: 0, coverage: 0.25 }), model).tier).toBe('low');
    expect(confidenceOf(parts(30, { lowest: true }), model).tier).toBe('insufficient');
  });

  it('weighs corroboration through the expected move: the interval and the precision move with it', () => {
    const agreed = confidenceOf(parts(5, { corroboration: 1 }), model);
    const alone = confidenceOf(parts(5, { corroboration: 0 }), model);
    expect(alone.move - agreed.move).toBeCloseTo(2, 9);
    expect(alone.interval.high - alone.interval.low).toBeGreaterThan(agreed.interval.high - agreed.interval.low);
    expect(alone.precision).toBeLessThan(agreed.precision);
  });

  it('measures the margin up to the next grade, and down from the lower of the total and the confirmed records\' total', () => {
    expect(gradeMarginOf(3, 3)).toBe(12);
    expect(gradeMarginOf(20, 20)).toBe(6);
    expect(gradeMarginOf(20, 17)).toBe(3);
    // the confirmed records alone fall in a lower grade: less than a point
    expect(gradeMarginOf(20, 10)).toBeLessThan(1);
    expect(gradeMarginOf(90, 90)).toBe(26);
  });

  it('rounds to two decimals', () => {
    const rows = [cell({ event_type: 'hpd_violation', category: 'pests', severity: 'medium', age_bucket: '2-3y' })];
    const { score, dimensions } = scoreBuilding(input({ histogram: rows })).confidence;
    for (const value of [score, dimensions.coverage, dimensions.freshness, dimensions.corroboration]) {
      expect(Math.round(value * 100) / 100).toBe(value);
    }
  });
});
