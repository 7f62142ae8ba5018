import { CATEGORIES, EVENT_TYPES, SEVERITIES } from '@bhis/domain';
import { AGE_BUCKET_KEYS } from './age-buckets';
import { BuildingInput, HistogramRow } from './input';
import { scoreBuilding } from './score-building';
import { cell, input } from './test-support';

/** Prints the scoring rate on synthetic buildings of realistic histogram sizes (no timed assertion). */
describe('benchmark', () => {
  it('reports buildings scored per second', () => {
    let seed = 42;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const buildings: BuildingInput[] = Array.from({ length: 2000 }, () => {
      const rows: HistogramRow[] = Array.from({ length: 5 + next(60) }, () =>
        cell({
          event_type: EVENT_TYPES[next(EVENT_TYPES.length)],
          category: CATEGORIES[next(CATEGORIES.length)],
          severity: SEVERITIES[next(SEVERITIES.length)],
          open: next(3) === 0,
          age_bucket: AGE_BUCKET_KEYS[next(AGE_BUCKET_KEYS.length)],
          count: 1 + next(20),
          amount: next(4) === 0 ? next(10_000) : 0,
        }),
      );
      const units = next(200);
      return input({ histogram: rows, facts: { residential_units: units, hpd_legal_units: units } });
    });
    for (const building of buildings.slice(0, 500)) scoreBuilding(building);
    const rounds = 5;
    const start = process.hrtime.bigint();
    for (let r = 0; r < rounds; r++) for (const building of buildings) scoreBuilding(building);
    const elapsedMs = Number(process.hrtime.bigint() - start) / 1e6;
    const perBuildingMs = elapsedMs / (rounds * buildings.length);
    const meanRows = buildings.reduce((n, b) => n + b.histogram.length, 0) / buildings.length;
    console.log(
      `scoreBuilding: ${(1000 / perBuildingMs).toFixed(0)} buildings/s, ${(perBuildingMs * 1000).toFixed(1)} us per building (mean ${meanRows.toFixed(0)} histogram cells)`,
    );
    expect(perBuildingMs).toBeGreaterThan(0);
  });
});
