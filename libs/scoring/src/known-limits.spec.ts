import { UNCERTAIN_LABEL } from './grades';
import { isPublicHousingBuilding } from './known-limits';
import { scoreBuilding } from './score-building';
import { cell, freshSources, input } from './test-support';

/** Cases where a user can see a grade is wrong, or claims more than the records can know. */
describe('what the model cannot know', () => {
  const publicHousing = { management_program: 'NYCHA', owner_name: 'NEW YORK CITY HOUSING AUTHORITY', residential_units: 120, hpd_legal_units: 120, building_class: 'D3' };

  it('never gives public housing (HPD ManagementProgram NYCHA) a confident A or F: flagged, lowest tier, with a reason', () => {
    const quiet = scoreBuilding(input({ facts: publicHousing }));
    expect(quiet.grade).not.toBe('A');
    expect(quiet.flags).toContain('public-housing');
    expect(quiet.confidence.tier).toBe('insufficient');
    expect(quiet.confidence.flags).toContain('public-housing');
    expect(quiet.confidence.reason).toMatch(/public housing/i);

    const busy = scoreBuilding(
      input({
        facts: publicHousing,
        histogram: [
          cell({ event_type: 'complaint_311', category: 'heat_hot_water', severity: 'medium', age_bucket: '0-3m', count: 400 }),
          cell({ event_type: 'ecb_violation', category: 'boiler', severity: 'critical', open: true, age_bucket: '0-3m', count: 30 }),
        ],
      }),
    );
    expect(busy.grade).not.toBe('F');
    expect(busy.confidence.tier).toBe('insufficient');
  });

  it('never labels a building graded under a known limit "Good" or "Excellent": the label says it cannot be graded with confidence', () => {
    const quiet = scoreBuilding(input({ facts: publicHousing }));
    const unitsUnknown = scoreBuilding(input({ facts: { residential_units: 0, hpd_legal_units: null, building_class: 'C1' } }));
    for (const score of [quiet, unitsUnknown]) {
      expect(score.label).toBe(UNCERTAIN_LABEL);
      expect(['Good', 'Excellent']).not.toContain(score.label);
      expect(score.confidence.reason).toBeTruthy();
    }
    expect(unitsUnknown.flags).toContain('units-unknown');
    // a building the model can know keeps the label of its grade
    expect(scoreBuilding(input({ facts: { residential_units: 12, hpd_legal_units: 12, building_class: 'C1' } })).label).toBe('Excellent');
  });

  it('recognises public housing by its owner when the management program is missing', () => {
    const score = scoreBuilding(input({ facts: { ...publicHousing, management_program: null, owner_name: 'NYC HOUSING AUTHORITY' } }));
    expect(score.flags).toContain('public-housing');
  });

  it('does not flag public housing for a missing HPD registration (it does not register)', () => {
    const facts = { ...publicHousing, registration_end_date: null, in_hpd_jurisdiction: true };
    expect(scoreBuilding(input({ facts })).flags).not.toContain('no-registration');
    expect(scoreBuilding(input({ facts: { ...facts, management_program: 'PVT', owner_name: 'HARBOR HOLDINGS LLC' } })).flags).toContain('no-registration');
  });

  it('applies the same public-housing rule to bare building facts (as the validation harness does)', () => {
    expect(isPublicHousingBuilding({ management_program: ' nycha ', owner_name: 'OWNER LLC' })).toBe(true);
    expect(isPublicHousingBuilding({ management_program: null, owner_name: 'NEW YORK CITY HOUSING AUTHORITY' })).toBe(true);
    expect(isPublicHousingBuilding({ management_program: 'PVT', owner_name: 'HARBOR HOLDINGS LLC' })).toBe(false);
    expect(isPublicHousingBuilding({})).toBe(false);
  });

  it('does not leave a 3-unit building with an open class C lead-paint violation at A', () => {
    const score = scoreBuilding(
      input({
        facts: { residential_units: 3, hpd_legal_units: 3, building_class: 'C0' },
        histogram: [cell({ event_type: 'hpd_violation', category: 'lead_paint', severity: 'critical', open: true, age_bucket: '5y+' })],
      }),
    );
    expect(score.grade).not.toBe('A');
    expect(score.explanation.adjustments.map((a) => a.rule)).toContain('serious-hazard-floor');
  });

  it.each([
    ['an active vacate order', cell({ event_type: 'hpd_vacate_order', category: 'habitability', severity: 'critical', open: true, age_bucket: '2-3y' })],
    ['an open immediately hazardous ECB violation', cell({ event_type: 'ecb_violation', category: 'structural', severity: 'critical', open: true, age_bucket: '2-3y' })],
  ])('does not leave a building with %s at A', (_, row) => {
    expect(scoreBuilding(input({ histogram: [row] })).grade).not.toBe('A');
  });

  it.each([
    ['no unit count at all', { residential_units: 0, hpd_legal_units: null, building_class: 'C1' }],
    ['an elevator apartment building listed with 3 units', { residential_units: 3, hpd_legal_units: null, building_class: 'D1' }],
    ['PLUTO and HPD unit counts that disagree tenfold', { residential_units: 3, hpd_legal_units: 40, building_class: 'C4' }],
  ])('never gives a confident F with %s', (_, building) => {
    const rows = [
      cell({ event_type: 'hpd_violation', category: 'habitability', severity: 'critical', open: true, age_bucket: '0-3m', count: 60 }),
      cell({ event_type: 'hpd_complaint', category: 'heat_hot_water', severity: 'high', age_bucket: '0-3m', count: 80 }),
      cell({ event_type: 'emergency_repair_omo', category: 'plumbing', age_bucket: '6-12m', amount: 9000, count: 3 }),
    ];
    const score = scoreBuilding(input({ facts: building, histogram: rows }));
    expect(score.flags).toContain('units-unknown');
    expect(score.confidence.tier).toBe('insufficient');
    expect(score.grade).not.toBe('F');
    expect(score.confidence.reason).toMatch(/unit/i);
  });

  it('does not raise confidence for one new complaint', () => {
    const records = [
      cell({ event_type: 'hpd_violation', category: 'pests', severity: 'high', age_bucket: '1-2y', count: 2 }),
      cell({ event_type: 'dob_violation', category: 'construction', severity: 'medium', age_bucket: '2-3y' }),
    ];
    for (const histogram of [[], records]) {
      const before = scoreBuilding(input({ histogram })).confidence;
      const complaint = cell({ event_type: 'complaint_311', category: 'heat_hot_water', severity: 'medium', age_bucket: '0-3m' });
      const after = scoreBuilding(input({ histogram: [...histogram, complaint] })).confidence;
      expect(after.score).toBeLessThanOrEqual(before.score);
      expect(TIER_RANK[after.tier]).toBeLessThanOrEqual(TIER_RANK[before.tier]);
    }
  });

  it('lowers confidence when a source is weeks behind', () => {
    const rows = [cell({ event_type: 'hpd_violation', category: 'water_damage', severity: 'high', open: true, age_bucket: '3-6m', count: 40 })];
    const fresh = scoreBuilding(input({ histogram: rows })).confidence;
    const sources = { ...freshSources(), hpd_violations: { last_refreshed_at: '2025-05-20T00:00:00Z', latest_record_date: '2025-05-19', cadence: 'daily' } };
    const stale = scoreBuilding(input({ histogram: rows, sources })).confidence;
    expect(stale.score).toBeLessThan(fresh.score);
    expect(stale.flags).toContain('stale-source:hpd_violations');
  });
});

const TIER_RANK: Record<string, number> = { insufficient: 0, low: 1, medium: 2, high: 3 };
