import { IdSpace, idWeight, MAX_ID } from './id-space';

describe('IdSpace', () => {
  it('gives each lot a range in proportion to its units, in lot order, without overlap, below 2^31', () => {
    const weights = [1, 3, 1, 200, 2].map((units) => idWeight({ units }));
    const space = new IdSpace(weights);
    const ranges = weights.map((_, index) => space.rangeOf(index));
    expect(ranges.map((r) => r.capacity)).toEqual(weights.map((w) => w * space.perWeight));
    for (let i = 1; i < ranges.length; i++) expect(ranges[i]?.base).toBe((ranges[i - 1]?.base ?? 0) + (ranges[i - 1]?.capacity ?? 0));
    const last = ranges[ranges.length - 1];
    expect((last?.base ?? 0) + (last?.capacity ?? 0)).toBeLessThanOrEqual(MAX_ID);
    expect(ranges[0]?.base).toBe(999_999);
  });

  it('counts a lot without units as one', () => {
    expect(idWeight({ units: 0 })).toBe(1);
  });
});
