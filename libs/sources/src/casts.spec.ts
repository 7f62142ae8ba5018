import fc from 'fast-check';
import {
  castBbl,
  castBin,
  castBlock,
  castBoolean,
  castBorough,
  castCoordinates,
  castDate,
  castDecimal,
  castInt,
  castLot,
  castText,
} from './casts';
import { RowFields } from './row-fields';

const value = <T>(cast: { ok: true; value: T | null } | { ok: false }) => (cast.ok ? cast.value : 'FAILED');

describe('castDate', () => {
  it('reads the fixed forms exactly as the general pattern does', () => {
    // the same date in a text of another length, which only the regular expression reads: a time of
    // day added to a bare date, two spaces before the time of a date with one
    const general = (text: string, dayFirst: boolean) =>
      castDate(text.length === 10 ? `${text} 00:00` : text.replace(' ', '  '), { dayFirst, maxYear: 2040 });
    const digits = ['00', '01', '09', '10', '12', '13', '29', '30', '31', '32', '59', '60', '99', '0a'];
    for (const a of digits) {
      for (const b of ['01', '15', '29', '30', '31', '32', '00']) {
        for (const year of ['2024', '2023', '1900', '2000', '1799', '2041', '20x4']) {
          for (const time of ['', ' 08:00:00 AM', ' 12:59:59 pm', ' 00:10:00 AM', ' 13:00:00 PM', ' 11:60:00 AM', ' 11:30:00 XM', ' 11:30:00 AMX', ' 1:30:00 AM', 'T11:30:00 AM']) {
            const text = `${a}/${b}/${year}${time}`;
            for (const dayFirst of [false, true]) expect(castDate(text, { dayFirst, maxYear: 2040 })).toEqual(general(text, dayFirst));
          }
        }
      }
    }
  });

  it.each([
    ['10/09/2013', '2013-10-09'],
    ['1/3/2012', '2012-01-03'],
    ['19980504', '1998-05-04'],
    ['06/07/2023 04:36:13 PM', '2023-06-07'],
    ['09/12/2014 12:00:00 AM', '2014-09-12'],
    ['04/2019', '2019-04-01'],
    ['2017-05-04', '2017-05-04'],
    ['2023-06-30T00:00:00.000', '2023-06-30'],
    ['2023-06-30T13:45:00Z', '2023-06-30'],
    ['  02/26/2024 ', '2024-02-26'],
    ['', null],
    ['N/A', null],
  ])('reads %j', (raw, expected) => {
    expect(value(castDate(raw))).toBe(expected);
  });

  it.each(['10/24/0201', '12/12/0202', '02/30/2021', '13/01/2020', '15/04/2024', '2020-13-01', 'yesterday', '20201301', '99/9999', '01/01/2020 25:00:00'])(
    'rejects %j',
    (raw) => {
      expect(castDate(raw).ok).toBe(false);
    },
  );

  it('reads day-first dates only where the column is declared so', () => {
    expect(value(castDate('15/04/2024', { dayFirst: true }))).toBe('2024-04-15');
    expect(value(castDate('04/05/2024', { dayFirst: true }))).toBe('2024-05-04');
  });

  it('rejects far-future dates beyond the bound', () => {
    expect(castDate('01/01/9999').ok).toBe(false);
    expect(castDate('01/01/2090', { maxYear: 2040 }).ok).toBe(false);
    expect(value(castDate('09/01/2030', { maxYear: 2040 }))).toBe('2030-09-01');
  });
});

describe('number casts', () => {
  it.each([
    ['1,700', 1700],
    ['12,345,678', 12345678],
    ['.00', 0],
    ['4000.00', 4000],
    ['$37300.00', 37300],
    ['-73.9325913', -73.9325913],
    ['  42 ', 42],
  ])('decimal %j', (raw, expected) => {
    expect(value(castDecimal(raw))).toBe(expected);
  });

  it('int accepts an all-zero fraction, rejects a real one', () => {
    expect(value(castInt('12.00'))).toBe(12);
    expect(value(castInt('1,122'))).toBe(1122);
    expect(castInt('12.5').ok).toBe(false);
    expect(castInt('1,70').ok).toBe(false);
    expect(value(castInt('2147483647'))).toBe(2147483647);
    expect(value(castInt('-2147483647'))).toBe(-2147483647);
    expect(castInt('2147483648').ok).toBe(false);
    expect(castInt('1e12').ok).toBe(false);
    expect(castInt('abc').ok).toBe(false);
  });

  it('booleans', () => {
    expect(value(castBoolean('Y'))).toBe(true);
    expect(value(castBoolean('NO'))).toBe(false);
    expect(value(castBoolean('False'))).toBe(false);
    expect(castBoolean('maybe').ok).toBe(false);
  });
});

describe('place casts', () => {
  it.each([
    ['1', 1],
    ['MN', 1],
    ['Bronx', 2],
    ['BROOKLYN', 3],
    ['BK', 3],
    ['QNS.', 4],
    ['Queens', 4],
    ['STATEN IS', 5],
    ['Staten Island', 5],
  ])('borough %j', (raw, expected) => {
    expect(value(castBorough(raw))).toBe(expected);
  });

  it('borough failures and placeholders', () => {
    expect(castBorough('NOT NYC').ok).toBe(false);
    expect(castBorough('0').ok).toBe(false);
    expect(value(castBorough('Unspecified'))).toBeNull();
  });

  it('blocks and lots of any padding', () => {
    expect(value(castBlock('01201'))).toBe(1201);
    expect(value(castBlock('16'))).toBe(16);
    expect(castBlock('0').ok).toBe(false);
    expect(castBlock('ABCDE').ok).toBe(false);
    expect(value(castLot('00063'))).toBe(63);
    expect(value(castLot('07501'))).toBe(7501);
    expect(value(castLot('0009'))).toBe(9);
    expect(castLot('10000').ok).toBe(false);
  });

  it('BINs: placeholders and zero are no building', () => {
    expect(value(castBin('3107130'))).toBe(3107130);
    expect(value(castBin('1000000'))).toBeNull();
    expect(value(castBin('5000000'))).toBeNull();
    expect(value(castBin('0'))).toBeNull();
    expect(value(castBin(''))).toBeNull();
    expect(castBin('999').ok).toBe(false);
    expect(castBin('6123456').ok).toBe(false);
  });

  it('BBLs', () => {
    expect(value(castBbl('3048060077'))).toBe('3048060077');
    expect(value(castBbl('3048060077.0'))).toBe('3048060077');
    expect(value(castBbl(''))).toBeNull();
    expect(castBbl('4284335').ok).toBe(false);
    expect(castBbl('6000010001').ok).toBe(false);
    expect(castBbl('1000000001').ok).toBe(false);
  });

  it('coordinates: (0,0) is null, 1e6-scaled values are divided back', () => {
    expect(value(castCoordinates('0', '0'))).toBeNull();
    expect(value(castCoordinates('', ''))).toBeNull();
    expect(value(castCoordinates('40866075.00000000', '-73896515.00000000'))).toEqual({ latitude: 40.866075, longitude: -73.896515 });
    expect(value(castCoordinates('40.851013999999999', '-73.937239000000005'))).toEqual({ latitude: 40.851014, longitude: -73.937239 });
    expect(castCoordinates('40.8', '').ok).toBe(false);
  });
});

describe('castText', () => {
  it('trims padding, collapses inner runs, placeholders are null', () => {
    expect(value(castText('10          '))).toBe('10');
    expect(value(castText('WEST   88 STREET'))).toBe('WEST 88 STREET');
    expect(value(castText('XXXX'))).toBeNull();
    expect(value(castText('N/A'))).toBeNull();
    expect(value(castText('   '))).toBeNull();
  });
});

describe('RowFields', () => {
  it('counts a failure per column, once per record, and remembers it', () => {
    const failures: Record<string, number> = {};
    const row = new RowFields(new Map([['When', '10/24/0201'], ['Units', '1,700']]), failures);
    expect(row.date('When')).toBeNull();
    expect(row.date('When')).toBeNull();
    expect(row.failed('When')).toBe(true);
    expect(row.int('Units')).toBe(1700);
    expect(failures).toEqual({ When: 1 });
    expect(() => row.raw('Nope')).toThrow('unknown column "Nope"');
  });
});

describe('property: no cast throws', () => {
  const anything = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.constantFrom('', ' ', '0', '00/00/0000', '$', ',', '.', '1e400', 'NaN', '-0'));
  it('on any string', () => {
    fc.assert(
      fc.property(anything, anything, (a, b) => {
        for (const cast of [castText, castDecimal, castInt, castBoolean, castBorough, castBlock, castLot, castBin, castBbl]) cast(a);
        castDate(a);
        castDate(a, { dayFirst: true });
        castCoordinates(a, b);
        const failures: Record<string, number> = {};
        const row = new RowFields(new Map([['x', a]]), failures);
        row.date('x');
        row.bbl('x');
        row.coordinates('x', 'x');
        return Object.values(failures).every((n) => n === 1);
      }),
      { numRuns: 2000 },
    );
  });
});
