import { addressKey, companyKey, personKey } from './normalize';

describe('companyKey', () => {
  it.each([
    ['ZORIANO ASSOCIATES INC', 'ZORIANO ASSOCIATES'],
    ['METIS REALTY, LLC', 'METIS REALTY'],
    ['METIS REALTY L.L.C.', 'METIS REALTY'],
    ['3399 FULTON ST. REALTY CORP', '3399 FULTON ST REALTY'],
    ['THE "ANCHOR" GROUP, INC', 'ANCHOR GROUP'],
    ['The Anchor Group Inc.', 'ANCHOR GROUP'],
    ['EBD MANAGEMENT SERVICES, LLC', 'EBD MANAGEMENT SERVICES'],
    ['A & B HOLDINGS CO', 'A AND B HOLDINGS'],
    ['BEEKMAN HOLDINGS LLC INC', 'BEEKMAN HOLDINGS'],
  ])('%s -> %s', (raw, key) => expect(companyKey(raw)).toBe(key));

  it.each(['', '  ', 'NA', 'N/A', 'SAME', '0', 'NONE', 'UNKNOWN', '---', null, undefined])('a placeholder (%p) links nothing', (raw) => {
    expect(companyKey(raw)).toBeNull();
  });

  it('keeps a legal form that is the whole name', () => {
    expect(companyKey('LLC')).toBe('LLC');
  });
});

describe('personKey', () => {
  it.each([
    ['STUART J ZAUSNER', 'STUART ZAUSNER'],
    ['Stuart Zausner', 'STUART ZAUSNER'],
    ['FRANK A. RACCUGLIA JR', 'FRANK RACCUGLIA'],
    ['PATRICK "JACK" O\'BRIEN', 'PATRICK OBRIEN'],
    ['CHRISTOPHER T RUSSELL', 'CHRISTOPHER RUSSELL'],
  ])('%s -> %s', (raw, key) => expect(personKey(raw)).toBe(key));

  it('names nobody with one word, initials only or a placeholder', () => {
    for (const raw of ['RUSSELL', 'A B', 'NA', '', 'J. R.', null]) expect(personKey(raw)).toBeNull();
  });
});

describe('addressKey', () => {
  it('is one key for the spellings of one office in HPD contact rows', () => {
    const spellings = ['26 DELAVAN STREET BROKLYN NY 11231', '26 DELAVEN ST BKLYN NY 11231', '26 DELAVAN ST BKLYN NY 11231', '26 DELAVEN STREET BROOKLYN NY 11231'];
    expect(new Set(spellings.map(addressKey))).toEqual(new Set(['26 DEL 11231']));
    expect(addressKey('1860 52ND STREET 1I BKLYN NY 11204')).toBe(addressKey('1860 52ND ST 1I BKLYN NY 11204'));
    expect(addressKey('1 FIFTH AVENUE NEW YORK NY 10003')).toBe(addressKey('1 5TH AVE NEW YORK NY 10003'));
    expect(addressKey('215-11 67TH AVENUE BAYSIDE NY 11364')).toBe('215-11 67 11364');
  });

  it('keeps offices apart by house number, street and ZIP', () => {
    expect(addressKey('26 DELAVAN STREET BROOKLYN NY 11231')).not.toBe(addressKey('28 DELAVAN STREET BROOKLYN NY 11231'));
    expect(addressKey('26 DELAVAN STREET BROOKLYN NY 11231')).not.toBe(addressKey('26 DELAVAN STREET BROOKLYN NY 11232'));
    expect(addressKey('423 95TH ST BKLYN NY 11209')).not.toBe(addressKey('423 96TH ST BKLYN NY 11209'));
  });

  it.each(['', 'SAME', 'NA NA NA', '0 SAME 00000', '0 MAIN STREET NY 10001', 'MAIN STREET NEW YORK NY 10001', '12 MAIN STREET NEW YORK NY', 'PO BOX 1234 NEW YORK NY 10001', '12 10001', null])(
    '%p (no house number, street and ZIP) links nothing',
    (raw) => expect(addressKey(raw)).toBeNull(),
  );
});
