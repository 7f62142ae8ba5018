import { accumulateSignals } from './signal-engine';
import { scoreComponents } from './component-scores';
import { deriveFeatures } from './features';
import { FITTED_MODEL, halfLifeFactorOf, sizeFactor } from './fitted-model';
import { scoreBuilding } from './score-building';
import { combinedLogHealth } from './total-score';
import { cell, input } from './test-support';

/** Closed class B violations of 3-5 years ago, the same number per unit at any size. */
function building(units: number) {
  const histogram = [cell({ event_type: 'hpd_violation', open: false, severity: 'high', category: 'water_damage', age_bucket: '3-5y', count: units })];
  return input({ histogram, facts: { residential_units: units, hpd_legal_units: units, registration_end_date: '2026-09-01' } });
}

describe('the half-life of small buildings', () => {
  it('is the fitted factor of the buildings of up to 5 units, longer than that of larger ones', () => {
    expect(FITTED_MODEL.small_buildings.to_units).toBe(5);
    expect(FITTED_MODEL.small_buildings.half_life_factor).toBeGreaterThan(FITTED_MODEL.half_life_factor);
    expect(halfLifeFactorOf(3)).toBe(FITTED_MODEL.small_buildings.half_life_factor);
    expect(halfLifeFactorOf(5)).toBe(FITTED_MODEL.small_buildings.half_life_factor);
    expect(halfLifeFactorOf(6)).toBe(FITTED_MODEL.half_life_factor);
    expect(halfLifeFactorOf(4, { half_life_factor: 0.5, small_buildings: { to_units: 3, half_life_factor: 1, level: 1 } })).toBe(0.5);
  });

  it('keeps the same old records per unit weighing more at a building of 4 units than at one of 8', () => {
    const small = scoreBuilding(building(4));
    const large = scoreBuilding(building(8));
    expect(small.components.living_conditions.score).toBeGreaterThan(large.components.living_conditions.score);
    // each scored at its own factor
    for (const [units, score] of [[4, small], [8, large]] as const) {
      const b = building(units);
      const features = deriveFeatures(b);
      const factor = halfLifeFactorOf(units);
      const expected = scoreComponents(b, features, accumulateSignals(b.histogram, 0, factor), false, factor);
      expect(score.components.living_conditions.score).toBe(expected.living_conditions.score);
    }
  });

  it('multiplies a small building\'s combined log-health by the fitted level, and no larger one\'s', () => {
    expect(FITTED_MODEL.small_buildings.level).toBeGreaterThan(0);
    expect(FITTED_MODEL.small_buildings.level).toBeLessThan(1);
    const scores = { living_conditions: 40, building_safety: 10, complaint_burden: 30, management_quality: 20, financial_distress: 5, deferred_maintenance: 0, legal_enforcement: 15 };
    const per = (units: number) => combinedLogHealth(scores, units) / sizeFactor(units);
    expect(per(5) / per(6)).toBeCloseTo(FITTED_MODEL.small_buildings.level, 9);
    expect(per(3)).toBeCloseTo(per(5), 9);
    expect(per(60)).toBeCloseTo(per(6), 9);
  });
});
