import { ConfidenceParts, confidenceOf } from '@bhis/scoring';
import { ConfidenceSample, fitConfidence, TARGET_COVERAGE } from './confidence-calibration';

/** A seeded generator (mulberry32): the same samples on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function samples(n: number, seed: number): ConfidenceSample[] {
  const next = random(seed);
  const out: ConfidenceSample[] = [];
  for (let i = 0; i < n; i++) {
    const total = Math.round(next() * 90);
    const confirmedSpread = next() * 10;
    const corroboration = Math.round(next() * 4) / 4;
    // the total moves by about 3 + 0.8 x spread + 2 x (1 - corroboration) points, either way
    const scale = 3 + 0.8 * confirmedSpread + 2 * (1 - corroboration);
    const move = Math.round(scale * 2 * next() * (next() < 0.5 ? -1 : 1));
    const parts: ConfidenceParts = { coverage: 1, freshness: 1, corroboration, total, margin: Math.round(next() * 20) - 2, confirmedSpread, multiBuilding: false, lowest: next() < 0.05 };
    out.push({ parts, next: Math.min(100, Math.max(0, total + move)) });
  }
  return out;
}

describe('the fit of the confidence constants', () => {
  const training = samples(6000, 7);
  const { fitted, coverage } = fitConfidence(training);

  it('finds the expected move the changes of the total follow, corroboration included', () => {
    expect(fitted.move.spread).toBeGreaterThan(0.5);
    expect(fitted.move.uncorroborated).toBeGreaterThan(1);
  });

  it('covers the next total of about 70% of the buildings of every tier, on new buildings too', () => {
    expect(coverage.map((c) => c.tier).sort()).toEqual(['high', 'insufficient', 'medium']);
    for (const c of coverage) expect(Math.abs(c.coverage - TARGET_COVERAGE)).toBeLessThan(0.03);
    const fresh = samples(3000, 11);
    for (const tier of ['high', 'medium', 'insufficient']) {
      const inTier = fresh.map((s) => ({ s, c: confidenceOf(s.parts, fitted) })).filter((x) => x.c.tier === tier);
      const share = inTier.filter(({ s, c }) => s.next >= c.interval.low && s.next <= c.interval.high).length / inTier.length;
      expect(share).toBeGreaterThan(0.6);
      expect(share).toBeLessThan(0.8);
    }
  });
});
