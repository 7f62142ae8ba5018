import { FLAG_KEYS } from './flags';
import { HistogramRow } from './input';
import { scoreBuilding } from './score-building';
import { cell, input } from './test-support';

const flagsOf = (histogram: HistogramRow[], facts = {}, heat = 0) =>
  scoreBuilding(input({ histogram, facts, aggregates: { heat_season_complaints: heat } })).flags;

describe('flags', () => {
  it('has the flags the interface names', () => {
    for (const key of [
      'fdny-vacate-active',
      'hpd-vacate-active',
      'dob-vacate-active',
      'aep-active',
      'ucp-active',
      'tax-lien-sale-listed',
      'registration-expired',
      'no-registration',
      'open-class-c',
      'heat-season-complaints',
      'water-damage-recent',
      'emergency-repairs-recent',
      'fema-repair',
    ]) {
      expect(FLAG_KEYS).toContain(key);
    }
  });

  it('raises vacate and program flags only while active', () => {
    const active = flagsOf([
      cell({ event_type: 'fdny_vacate', category: 'fire', open: true }),
      cell({ event_type: 'dob_vacate_order', category: 'vacate', open: true }),
      cell({ event_type: 'ucp_order', category: 'enforcement_program', open: true }),
    ]);
    expect(active).toEqual(expect.arrayContaining(['fdny-vacate-active', 'dob-vacate-active', 'ucp-active']));
    const past = flagsOf([
      cell({ event_type: 'fdny_vacate', category: 'fire', open: false }),
      cell({ event_type: 'dob_vacate_order', category: 'vacate', open: false }),
      cell({ event_type: 'ucp_order', category: 'enforcement_program', open: false }),
    ]);
    expect(past).not.toEqual(expect.arrayContaining(['fdny-vacate-active']));
    expect(past).not.toContain('dob-vacate-active');
    expect(past).not.toContain('ucp-active');
  });

  it('flags registration problems only for buildings that must register', () => {
    expect(flagsOf([], { registration_end_date: '2025-01-01' })).toContain('registration-expired');
    expect(flagsOf([], { registration_end_date: null })).toContain('no-registration');
    const house = { residential_units: 1, hpd_legal_units: null, building_class: 'A1', registration_end_date: null };
    expect(flagsOf([], house)).not.toContain('no-registration');
    expect(flagsOf([], { registration_end_date: null, in_hpd_jurisdiction: false })).not.toContain('no-registration');
  });

  it('uses the 12-month window for recent-record flags', () => {
    const recent = flagsOf([
      cell({ event_type: 'hpd_violation', category: 'mold', severity: 'high', age_bucket: '6-12m' }),
      cell({ event_type: 'emergency_repair_hwo', category: 'plumbing', age_bucket: '3-6m', amount: 800 }),
      cell({ event_type: 'tax_lien_sale_listing', category: 'financial', age_bucket: '0-3m' }),
    ]);
    expect(recent).toEqual(expect.arrayContaining(['water-damage-recent', 'emergency-repairs-recent', 'tax-lien-sale-listed']));
    const old = flagsOf([
      cell({ event_type: 'hpd_violation', category: 'mold', severity: 'high', age_bucket: '1-2y' }),
      cell({ event_type: 'emergency_repair_hwo', category: 'plumbing', age_bucket: '1-2y', amount: 800 }),
      cell({ event_type: 'tax_lien_sale_listing', category: 'financial', age_bucket: '1-2y' }),
    ]);
    expect(old).toEqual([]);
  });

  it('flags open class C violations of any age, but not class A', () => {
    expect(flagsOf([cell({ event_type: 'hpd_violation', severity: 'critical', open: true, age_bucket: '5y+' })])).toContain('open-class-c');
    expect(flagsOf([cell({ event_type: 'hpd_violation', severity: 'medium', open: true })])).not.toContain('open-class-c');
  });

  it('scales the heat-season threshold with the building', () => {
    expect(flagsOf([], {}, 3)).toContain('heat-season-complaints');
    expect(flagsOf([], { residential_units: 200, hpd_legal_units: 200 }, 3)).not.toContain('heat-season-complaints');
    expect(flagsOf([], { residential_units: 200, hpd_legal_units: 200 }, 20)).toContain('heat-season-complaints');
  });

  it('flags disaster repairs apart from chronic ones', () => {
    const flags = flagsOf([cell({ event_type: 'emergency_repair_omo', category: 'structural', scoring_excluded: true, age_bucket: '6-12m' })]);
    expect(flags).toContain('fema-repair');
    expect(flags).not.toContain('emergency-repairs-recent');
  });

  it('reports the published AEP, UCP and Watchlist rules with the figures a user can check by hand', () => {
    const rows = [
      cell({ event_type: 'hpd_violation', category: 'water_damage', severity: 'high', open: true, age_bucket: '3-6m', count: 100 }),
      cell({ event_type: 'emergency_repair_omo', category: 'plumbing', age_bucket: '6-12m', amount: 3000 }),
    ];
    const score = scoreBuilding(input({ histogram: rows, facts: { residential_units: 30, hpd_legal_units: 30 } }));
    expect(score.flags).toEqual(expect.arrayContaining(['aep-criteria-met', 'ucp-criteria-met', 'watchlist-criteria-met']));
    expect(score.published_rules.aep).toEqual({
      met: true,
      units: 30,
      figures: { open_bc_violations_5y: 100, emergency_repair_charges_5y: 3000 },
      thresholds: { open_bc_violations_5y: 90, emergency_repair_charges_5y: 2500 },
    });
    expect(score.published_rules.ucp).toEqual({ met: true, units: 30, figures: { water_bc_violations_12m: 100 }, thresholds: { water_bc_violations_12m: 4.5 } });
    expect(score.published_rules.watchlist).toEqual({ met: true, units: 30, figures: { open_bc_violations: 100 }, thresholds: { open_bc_violations: 90 } });

    const house = scoreBuilding(input({ facts: { residential_units: 1, hpd_legal_units: null, building_class: 'A1' } }));
    expect(house.published_rules.aep).toEqual({ met: false, units: 1, figures: { open_bc_violations_5y: 0, emergency_repair_charges_5y: 0 }, thresholds: null });
  });
});
