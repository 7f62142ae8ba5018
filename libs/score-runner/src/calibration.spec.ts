import { COMPONENT_KEYS, ComponentKey } from '@bhis/domain';
import { calibrate, CalibrationSample } from './calibration';
import { latentOn } from './validation';

const components = (living: number, complaints: number): Record<ComponentKey, number> =>
  Object.fromEntries(COMPONENT_KEYS.map((key) => [key, key === 'living_conditions' ? living : key === 'complaint_burden' ? complaints : 0])) as Record<ComponentKey, number>;

describe('calibration of the component weights', () => {
  it('moves weight to the component that ranks the outcomes, and checks it on the later cut', () => {
    const samples: CalibrationSample[] = [];
    for (const cut of ['2023-11-01', '2024-11-01']) {
      for (let i = 0; i < 40; i++) {
        // complaints rank the outcome perfectly; living conditions are noise
        samples.push({ cut, band: '6-19', components: components((i * 37) % 40, i), label: i >= 30 });
      }
    }
    const result = calibrate(samples);
    expect(result.fitted_on).toBe('2023-11-01');
    expect(result.fitted.complaint_burden).toBeGreaterThan(result.current.complaint_burden);
    expect(result.by_cut.map((c) => c.cut)).toEqual(['2023-11-01', '2024-11-01']);
    for (const c of result.by_cut) expect(c.fitted).toBeGreaterThanOrEqual(c.current);
    expect(result.by_cut[1].fitted).toBe(1);
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
});
