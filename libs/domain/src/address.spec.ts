import { narrowingAddressWords, normalizeAddress } from './address';

describe('normalizeAddress', () => {
  it.each([
    ['123 w 45th st', '123 WEST 45 STREET'],
    ['123 W. 45TH STREET', '123 WEST 45 STREET'],
    ['123 WEST 45 STREET', '123 WEST 45 STREET'],
    ['  123   west   45 st ', '123 WEST 45 STREET'],
    ['104-12 101st ave', '104-12 101 AVENUE'],
    ['104 - 12 101 AVENUE', '104-12 101 AVENUE'],
    ['350 5th ave', '350 5 AVENUE'],
    ['350 fifth avenue', '350 5 AVENUE'],
    ['1 e 149 st', '1 EAST 149 STREET'],
    ['19 st marks pl', '19 SAINT MARKS PLACE'],
    ['761 CLARENCE AVENUE', '761 CLARENCE AVENUE'],
    ['2105 Ryer Ave', '2105 RYER AVENUE'],
    ['45 avenue a', '45 AVENUE A'],
    ['', ''],
  ])('%p -> %p', (input, expected) => expect(normalizeAddress(input)).toBe(expected));

  it('is idempotent', () => {
    for (const a of ['123 w 45th st', '104-12 101st ave', '19 st marks pl']) {
      expect(normalizeAddress(normalizeAddress(a))).toBe(normalizeAddress(a));
    }
  });
});

describe('narrowingAddressWords', () => {
  it.each([
    ['Q A', []],
    ['AVENUE X', []],
    ['WEST STREET', []],
    ['WEST 45 STREET', ['45']],
    ['EAST 4 STREET', ['4']],
    ['MAIN STREET', ['MAIN']],
    ['SAINT JOHNS PLACE', ['JOHNS']],
    ['QX', []],
    ['QXZ', ['QXZ']],
  ])('%s narrows by %j', (address, words) => {
    expect(narrowingAddressWords(address)).toEqual(words);
  });
});
