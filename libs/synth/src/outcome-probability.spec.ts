import { buildingAt } from './buildings';
import { dayOf, monthIndexOf } from './dates';
import { simulateBuilding } from './history';
import { latentProcessFor } from './latent';
import { seriousOutcomeProbability, OUTCOME_WINDOW_DAYS } from './outcome-probability';
import { drawHiddenOutcomes } from './outcomes';
import type { RecordSink } from './records';
import { seedKey } from './rng';

/** A sink that keeps nothing: only the serious outcomes of the simulation are looked at. */
const NOWHERE = new Proxy({}, { get: () => () => undefined }) as RecordSink;

/**
 * The probability the truth file writes is the generator's own: over thousands of buildings it predicts
 * how many serious outcomes the simulation then draws, overall and among the likeliest and the least likely.
 */
describe('seriousOutcomeProbability', () => {
  const seed = seedKey('outcome-probability');
  const buildings = 1500;
  const windowStart = dayOf(2021, 1, 1);
  const cuts = [dayOf(2023, 11, 2), dayOf(2025, 11, 1)];
  const options = { seed, firstMonth: monthIndexOf(windowStart), lastMonth: monthIndexOf(dayOf(2026, 11, 1)), rateScale: 1, quirks: false };
  const pairs: { p: number; happened: boolean }[] = [];

  beforeAll(() => {
    for (let index = 0; index < buildings; index++) {
      const building = buildingAt(seed, index, buildings);
      const latent = latentProcessFor(seed, building);
      const outcomes = drawHiddenOutcomes(seed, building, latent, options.firstMonth, options.lastMonth);
      const result = simulateBuilding(building, latent, options, NOWHERE, { base: 0, capacity: 1e9 }, outcomes);
      for (const cut of cuts) {
        const p = seriousOutcomeProbability(seed, building, latent, outcomes, cut);
        pairs.push({ p, happened: result.serious.some((s) => s.day > cut && s.day <= cut + OUTCOME_WINDOW_DAYS) });
      }
    }
  }, 120_000);

  const check = (subset: readonly { p: number; happened: boolean }[]) => {
    const expected = subset.reduce((s, x) => s + x.p, 0);
    const sd = Math.sqrt(subset.reduce((s, x) => s + x.p * (1 - x.p), 0));
    const observed = subset.filter((x) => x.happened).length;
    expect(Math.abs(observed - expected)).toBeLessThan(3.5 * sd);
  };

  it('is a probability', () => {
    for (const { p } of pairs) {
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThanOrEqual(1);
    }
  });

  it('predicts the number of outcomes the simulation draws', () => check(pairs));

  it('predicts them among the likeliest fifth and the rest', () => {
    const sorted = [...pairs].sort((a, b) => b.p - a.p);
    const top = sorted.slice(0, Math.floor(sorted.length / 5));
    check(top);
    check(sorted.slice(top.length));
    // the probability ranks: the likeliest fifth has several times the outcomes of the rest
    const rate = (xs: typeof pairs) => xs.filter((x) => x.happened).length / xs.length;
    expect(rate(top)).toBeGreaterThan(3 * rate(sorted.slice(top.length)));
  });

  it('writes nothing and draws nothing: the same inputs give the same value', () => {
    const building = buildingAt(seed, 7, buildings);
    const latent = latentProcessFor(seed, building);
    const outcomes = drawHiddenOutcomes(seed, building, latent, options.firstMonth, options.lastMonth);
    expect(seriousOutcomeProbability(seed, building, latent, outcomes, cuts[0])).toBe(seriousOutcomeProbability(seed, building, latent, outcomes, cuts[0]));
    expect(drawHiddenOutcomes(seed, building, latent, options.firstMonth, options.lastMonth)).toEqual(outcomes);
  });
});
