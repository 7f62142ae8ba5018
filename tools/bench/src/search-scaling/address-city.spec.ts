import { normalizeAddress } from '@bhis/domain';
import { buildingCopyLine, searchCity, withTypo } from './address-city';

describe('the search city', () => {
  const small = [...searchCity(4_450)];

  it('is the same at every run, and a smaller city has the lots and addresses of the start of a larger one', () => {
    expect([...searchCity(4_450)]).toEqual(small);
    const place = (b: { bbl: string; address: string; zipcode: string }) => `${b.bbl} ${b.address} ${b.zipcode}`;
    expect([...searchCity(200)].map(place)).toEqual(small.slice(0, 200).map(place));
  });

  it('has unique BBLs, normalized search addresses and the addresses of every borough', () => {
    expect(new Set(small.map((b) => b.bbl)).size).toBe(small.length);
    expect(small.length).toBeGreaterThan(4_400);
    for (const b of small.slice(0, 100)) {
      expect(b.bbl).toMatch(/^[1-5]\d{9}$/);
      expect(b.bbl[0]).toBe(String(b.borough));
      expect(b.address).toBe(`${b.houseNumber} ${b.street}`);
      expect(b.addressSearch).toBe(normalizeAddress(b.address));
      expect(b.zipcode).toMatch(/^1[01]\d{3}$/);
      expect(b.owner.length).toBeGreaterThan(2);
    }
    const boroughs = new Set(small.map((b) => b.borough));
    expect([...boroughs].sort()).toEqual([1, 2, 3, 4, 5]);
    // many streets and ZIP Codes, not a handful
    expect(new Set(small.map((b) => `${b.borough} ${b.street}`)).size).toBeGreaterThan(300);
    expect(new Set(small.map((b) => b.zipcode)).size).toBeGreaterThan(100);
  });

  it('spreads the boroughs alike at every size', () => {
    const share = (city: { borough: number }[], borough: number) => city.filter((b) => b.borough === borough).length / city.length;
    const larger = [...searchCity(44_500)];
    for (const borough of [1, 2, 3, 4, 5]) expect(Math.abs(share(small, borough) - share(larger, borough))).toBeLessThan(0.01);
  });

  it('writes a line of COPY text format, escaping what the format reserves', () => {
    const b = { ...small[0]!, owner: 'A\\B\tC' };
    const fields = buildingCopyLine(b).replace(/\n$/, '').split('\t');
    expect(fields).toHaveLength(12);
    expect(fields[10]).toBe('A\\\\B C');
  });
});

describe('a typing slip', () => {
  it('swaps two letters in the middle of the longest street word, never the house number', () => {
    expect(withTypo('347 lexington ave')).toBe('347 lexignton ave');
    expect(withTypo('12 w 45 st')).toBe('12 w 45 st');
    expect(withTypo('104-12 queens blvd')).toBe('104-12 quenes blvd');
  });
});
