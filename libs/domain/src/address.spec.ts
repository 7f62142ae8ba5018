import { deliveryLine, narrowingAddressWords, normalizeAddress } from './address';

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
    // USPS Publication 28 Appendix C1 spellings
    ['347 lexington avnue', '347 LEXINGTON AVENUE'],
    ['10 grand army plz', '10 GRAND ARMY PLAZA'],
    ['1 main strt', '1 MAIN STREET'],
    ['5 ocean pkwy', '5 OCEAN PARKWAY'],
    ['9 jamaica boul', '9 JAMAICA BOULEVARD'],
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

describe('deliveryLine', () => {
  it.each([
    ['347 Lexington Ave, New York, NY 10013', '347 LEXINGTON AVE'],
    ['347 Lexington Ave, Apt 5B, New York, NY 10013-1234', '347 LEXINGTON AVE'],
    ['347 Lexington Ave New York NY 10013', '347 LEXINGTON AVE'],
    ['2105 Ryer Ave Bronx NY 10457', '2105 RYER AVE'],
    ['104-12 101st Ave, Queens, NY', '104-12 101ST AVE'],
    ['347 lexington ave', '347 LEXINGTON AVE'],
    // streets named after the city are streets
    ['1000 New York Ave', '1000 NEW YORK AVE'],
    ['120-01 Queens Blvd', '120-01 QUEENS BLVD'],
    ['lexington', 'LEXINGTON'],
  ])('%p -> %p', (input, expected) => expect(deliveryLine(input)).toBe(expected));
});
