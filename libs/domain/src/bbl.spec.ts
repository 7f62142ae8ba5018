import fc from 'fast-check';
import { formatBbl, parseBbl, quoteInput } from './bbl';
import { parseBorough } from './boroughs';

describe('parseBbl', () => {
  it('accepts 10 digits with borough 1-5 and a non-zero block', () => {
    expect(parseBbl('1000010001')).toEqual({ ok: true, value: { bbl: '1000010001', borough: 1, block: 1, lot: 1 } });
    expect(parseBbl('5999999999')).toEqual({ ok: true, value: { bbl: '5999999999', borough: 5, block: 99999, lot: 9999 } });
    expect(parseBbl('3012340000').ok).toBe(true);
  });

  it.each([
    ['', 'exactly 10 digits'],
    ['100001000', 'exactly 10 digits'],
    ['10000100011', 'exactly 10 digits'],
    [' 1000010001', 'exactly 10 digits'],
    ['10000l0001', 'exactly 10 digits'],
    ['0000010001', 'borough digit must be 1-5'],
    ['6000010001', 'borough digit must be 1-5'],
    ['1000000001', 'block must not be 0'],
  ])('rejects %p (%s)', (input, reason) => {
    const result = parseBbl(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(reason);
  });

  it('rejects non-strings', () => {
    expect(parseBbl(1000010001).ok).toBe(false);
    expect(parseBbl(null).ok).toBe(false);
  });

  it('round-trips with formatBbl for every valid part', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 99999 }), fc.integer({ min: 0, max: 9999 }), (b, block, lot) => {
        const bbl = formatBbl(b, block, lot);
        expect(bbl).not.toBeNull();
        const parsed = parseBbl(bbl);
        expect(parsed).toEqual({ ok: true, value: { bbl, borough: b, block, lot } });
      }),
    );
  });

  it('never throws on arbitrary input', () => {
    fc.assert(fc.property(fc.anything(), (input) => void parseBbl(input)));
  });

  it('formatBbl refuses out-of-range parts', () => {
    expect(formatBbl(0, 1, 1)).toBeNull();
    expect(formatBbl(1, 0, 1)).toBeNull();
    expect(formatBbl(1, 100000, 1)).toBeNull();
    expect(formatBbl(1, 1, 10000)).toBeNull();
  });

  it('quotes client input trimmed to 40 characters', () => {
    expect(quoteInput('x'.repeat(50))).toBe(`${'x'.repeat(40)}...`);
    expect(quoteInput('abc')).toBe('abc');
  });
});

describe('parseBorough', () => {
  it.each([
    ['1', 1], ['MN', 1], ['Manhattan', 1], ['MANHATTAN', 1],
    ['2', 2], ['BX', 2], ['Bronx', 2],
    ['3', 3], ['BK', 3], ['BROOKLYN', 3],
    ['4', 4], ['QN', 4], ['QNS.', 4], ['Queens', 4],
    ['5', 5], ['SI', 5], ['STATEN IS', 5], ['Staten Island', 5], [' staten  island ', 5],
  ])('reads %p as %p', (raw, code) => expect(parseBorough(raw)).toBe(code));

  it.each(['NOT NYC', '0', '6', '', 'XX'])('rejects %p', (raw) => expect(parseBorough(raw)).toBeNull());
});
