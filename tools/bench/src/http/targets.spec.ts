import { postalAddress, streetWord } from './targets';

describe('the addresses the search scenarios send', () => {
  it('paste an address with its city, state and ZIP Code', () => {
    expect(postalAddress('347 LEXINGTON AVENUE', 1, '10016')).toBe('347 Lexington Ave, New York, NY 10016');
    expect(postalAddress('2105 RYER AVENUE', 2, null)).toBe('2105 Ryer Ave, Bronx, NY');
  });

  it('take a street by a word the street search accepts alone', () => {
    expect(streetWord('347 LEXINGTON AVENUE')).toBe('lexington');
    expect(streetWord('12 WEST PLACE')).toBeNull();
    expect(streetWord('5 SAINT MARKS PLACE')).toBe('marks');
  });
});
