import { COMPONENT_KEYS, ComponentKey } from '@bhis/domain';
import { calibrate, CalibrationSample, candidateTotal, KNEES, smallBuildingFactor, smallBuildingLevel } from './calibration';
import { latentOn } from './validation';

const components = (living: number, complaints: number): Record<ComponentKey, number> =>
  Object.fromEntries(COMPONENT_KEYS.map((key) => [key, key === 'living_conditions' ? living : key === 'complaint_burden' ? complaints : 0])) as Record<ComponentKey, number>;

describe('calibration of the total', () => {
  it('weighs the component that ranks the outcomes, none that ranks against them, and fits the size exponent', () => {
    const samples: CalibrationSample[] = [];
    for (let i = 0; i < 3000; i++) {
      const complaints = (i * 37) % 100;
      const living = (i * 53) % 90;
      const units = 3 + ((i * 101) % 200);
      // the outcome follows complaints and size; living conditions are noise
      const logit = -4 + 3 * -Math.log1p(-complaints / 100) + 0.6 * Math.log(units / 3);
      const u = ((i * 2654435761) % 4294967296) / 4294967296;
      samples.push({ bbl: String(i), cut: '2023-11-02', units, components: components(living, complaints), label: u < 1 / (1 + Math.exp(-logit)) });
    }
    samples.push({ bbl: 'later', cut: '2024-11-01', units: 3, components: components(0, 0), label: false });
    const result = calibrate(new Map([[1, samples]]));
    expect(result.fitted_on).toBe('2023-11-02');
    expect(result.samples).toBe(3000);
    const w = result.fitted.component_weights;
    expect(COMPONENT_KEYS.reduce((sum, k) => sum + w[k], 0)).toBeCloseTo(1, 9);
    expect(w.complaint_burden).toBeGreaterThan(2 * w.living_conditions);
    for (const k of COMPONENT_KEYS) expect(w[k]).toBeGreaterThanOrEqual(0);
    expect(result.fitted.size.exponent).toBeGreaterThan(0.1);
    // the same samples give the same constants
    expect(calibrate(new Map([[1, samples]])).fitted).toEqual(result.fitted);
    // the fitted total ranks by complaints and grows with size; without records it stays 0 at any size
    expect(candidateTotal({ components: components(0, 50), units: 100 }, result.fitted)).toBeGreaterThan(candidateTotal({ components: components(0, 50), units: 3 }, result.fitted));
    expect(candidateTotal({ components: components(0, 0), units: 500 }, result.fitted)).toBe(0);
  });

  it('chooses the half-life factor and the knee whose components predict the outcomes best, and ranks as the fit does', () => {
    const at = (factor: number) => {
      const samples: CalibrationSample[] = [];
      for (let i = 0; i < 3000; i++) {
        const truth = (i * 37) % 100;
        // at factor 0.5 the complaint component is the condition itself; at 1 it is blurred by noise
        const seen = factor === 0.5 ? truth : Math.min(99, Math.max(0, truth + (((i * 7919) % 61) - 30)));
        const units = 3 + ((i * 101) % 200);
        const logit = -3 + 1.2 * Math.log(-Math.log1p(-truth / 100) + 0.05) + 0.3 * Math.log(units / 3);
        const u = ((i * 2654435761) % 4294967296) / 4294967296;
        samples.push({ bbl: String(i), cut: '2023-11-02', units, components: components(0, seen), label: u < 1 / (1 + Math.exp(-logit)) });
      }
      return samples;
    };
    const result = calibrate(new Map([[1, at(1)], [0.5, at(0.5)]]));
    expect(result.fitted.half_life_factor).toBe(0.5);
    expect(result.candidates).toHaveLength(2 * KNEES.length);
    expect(result.fitted.size.exponent).toBeGreaterThan(0.1);
    expect(result.fitted.size.exponent).toBeLessThan(0.6);
    // a log scale: doubling a component's log-health moves the log of the total's log-health by about the same step at any level
    const health = (s: number) => -Math.log(1 - candidateTotal({ components: components(0, s), units: 3 }, result.fitted) / 100);
    const step = (s: number, t: number) => Math.log(health(t) / health(s));
    expect(step(40, 64)).toBeGreaterThan(0.5 * step(10, 19));
  });
});

describe('the ceiling of the backtest', () => {
  it('interpolates the hidden condition between the January values around the date', () => {
    const truth = { bbl: '1000010001', latentAsOf: 0, seriousAfterCut: false, latentByYear: { 2024: 0.2, 2025: 0.6 } };
    expect(latentOn(truth, '2024-01-01')).toBeCloseTo(0.2, 6);
    expect(latentOn(truth, '2024-07-02')).toBeCloseTo(0.4, 2);
    expect(latentOn(truth, '2025-06-01')).toBeCloseTo(0.6, 6);
    expect(latentOn({ ...truth, latentByYear: undefined }, '2024-07-02')).toBeNaN();
  });

  it('gives the small buildings the half-life factor at which the pooled ranking predicts their outcomes best', () => {
    // large buildings are seen best at factor 0.5, small ones at factor 1 (their condition blurred at 0.5)
    const at = (factor: number) => {
      const samples: CalibrationSample[] = [];
      for (let i = 0; i < 4000; i++) {
        const truth = (i * 37) % 100;
        const units = i % 2 === 0 ? 3 + (i % 3) : 20 + ((i * 101) % 200);
        const sharp = units <= 5 ? factor === 1 : factor === 0.5;
        const noise = (((i * 2246822519) % 4294967296) / 4294967296) * 80 - 40;
        const seen = sharp ? truth : Math.min(99, Math.max(0, truth + noise));
        const logit = -3 + 1.2 * Math.log(-Math.log1p(-truth / 100) + 0.05) + 0.3 * Math.log(units / 3);
        const u = ((i * 2654435761) % 4294967296) / 4294967296;
        samples.push({ bbl: String(i), cut: '2023-11-02', units, components: components(0, seen), label: u < 1 / (1 + Math.exp(-logit)) });
      }
      return samples;
    };
    const byFactor = new Map([[0.5, at(0.5)], [1, at(1)]]);
    const result = calibrate(byFactor);
    expect(result.fitted.half_life_factor).toBe(0.5);
    expect(result.fitted.small_buildings).toMatchObject({ to_units: 5, half_life_factor: 1 });
    expect(result.small_building_candidates.map((c) => c.half_life_factor)).toEqual([0.5, 1]);
    // only the small buildings decide: without them the pooled factor stays
    const large = new Map([...byFactor].map(([f, list]) => [f, list.filter((s) => s.units > 5)]));
    expect(smallBuildingFactor(large, '2023-11-02', result.fitted).factor).toBe(0.5);
  });

  it('sets the small buildings level so that records they keep longer do not lift them above larger buildings', () => {
    const model = { component_weights: { ...Object.fromEntries(COMPONENT_KEYS.map((k) => [k, 0])), complaint_burden: 1 } as Record<ComponentKey, number>, size: { exponent: 0, from_units: 3 }, knee: 0.1 };
    const samples = (inflate: number): CalibrationSample[] => {
      const out: CalibrationSample[] = [];
      for (let i = 0; i < 4000; i++) {
        const truth = (i * 37) % 90;
        const units = i % 2 === 0 ? 4 : 40;
        const logit = -3 + 1.2 * Math.log(-Math.log1p(-truth / 100) + 0.1);
        const u = ((i * 2654435761) % 4294967296) / 4294967296;
        // the small buildings' component is higher than their condition: their longer memory kept more records
        const seen = units <= 5 ? 100 * (1 - Math.pow(1 - truth / 100, inflate)) : truth;
        out.push({ bbl: String(i), cut: '2023-11-02', units, components: components(0, seen), label: u < 1 / (1 + Math.exp(-logit)) });
      }
      return out;
    };
    expect(smallBuildingLevel(samples(3), model)).toBeLessThan(0.7);
    expect(Math.abs(smallBuildingLevel(samples(1), model) - 1)).toBeLessThan(0.25);
    expect(smallBuildingLevel(samples(3).filter((s) => s.units > 5), model)).toBe(1);
  });
});
