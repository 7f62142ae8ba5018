import { normalizeAddress } from '@bhis/domain';

/**
 * Keys under which two registration contacts name the same owner: the same person or company, or the
 * same business address, however the registrations spell them. docs/landlord-portfolios.md gives the
 * rules and their limits.
 */

/** Values HPD's contact fields carry in place of a name or an address: never a link. */
const PLACEHOLDERS = new Set(['', 'NA', 'N A', 'N/A', 'NONE', 'NULL', 'SAME', 'SAME AS ABOVE', 'UNKNOWN', 'UNK', 'TBD', 'X', 'XX', 'XXX', '0', '00', '000', 'OWNER', 'NO NAME', 'NOT APPLICABLE']);

/** Legal-form words a company's name ends with, in any spelling (LLC, L.L.C., INC, CORP, ...). */
const LEGAL_FORMS = new Set([
  'LLC', 'L L C', 'LC', 'INC', 'INCORPORATED', 'CORP', 'CORPORATION', 'CO', 'COMPANY', 'LP', 'L P', 'LTD', 'LIMITED',
  'LLP', 'L L P', 'PC', 'P C', 'PLLC', 'ASSOC', 'ASSOCS', 'TRUST', 'HDFC',
]);

/** Suffixes of a person's name that two registrations of one person do not always write. */
const NAME_SUFFIXES = new Set(['JR', 'SR', 'II', 'III', 'IV', 'ESQ', 'MD', 'DR', 'MR', 'MRS', 'MS']);

function words(raw: string | null | undefined): string[] {
  if (!raw) return [];
  return raw
    .toUpperCase()
    .replace(/&/g, ' AND ')
    .replace(/[.,'`"]/g, '')
    .replace(/[^A-Z0-9 ]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

function isPlaceholder(text: string): boolean {
  return PLACEHOLDERS.has(text) || /^[^A-Z0-9]*$/.test(text);
}

/** A company's name without case, punctuation, a leading THE or its legal form: `THE "ANCHOR" GROUP, INC` -> `ANCHOR GROUP`. */
export function companyKey(raw: string | null | undefined): string | null {
  const tokens = words(raw);
  if (tokens[0] === 'THE') tokens.shift();
  for (;;) {
    const last2 = tokens.slice(-2).join(' ');
    if (tokens.length > 2 && LEGAL_FORMS.has(last2)) tokens.splice(-2);
    else if (tokens.length > 1 && LEGAL_FORMS.has(tokens[tokens.length - 1] ?? '')) tokens.pop();
    else break;
  }
  const key = tokens.join(' ');
  return isPlaceholder(key) ? null : key;
}

/**
 * A person's name as first and last name: initials, suffixes and nicknames dropped, so
 * `JOHN A. SMITH JR` and `John Smith` are one key. Null for a single word or a placeholder: a first
 * name or surname alone names nobody in particular.
 */
export function personKey(raw: string | null | undefined): string | null {
  // a nickname in quotes (`PATRICK "JACK" OBRIEN`) is not part of the name
  const tokens = words(raw?.replace(/"[^"]*"/g, ' ')).filter((t) => t.length > 1 && !NAME_SUFFIXES.has(t));
  if (tokens.length < 2 || isPlaceholder(tokens.join(' '))) return null;
  return `${tokens[0]} ${tokens[tokens.length - 1]}`;
}

const HOUSE_NUMBER = /^\d+[A-Z]?(-\d+[A-Z]?)?$/;

/**
 * A business address as house number, the first three letters of the street's first word and ZIP
 * code, after the street address rules of the building search (`FIFTH AVE` = `5 AVENUE`, `W` = `WEST`):
 * robust to the street type, city and misspellings registrations vary (`26 DELAVEN ST BKLYN` =
 * `26 DELAVAN STREET BROOKLYN`, both in HPD's own contact rows). `business` is
 * `house street [apartment] city state zip`, as the contacts table keeps it. Null without a house
 * number and ZIP (a PO box, `SAME`, `0`).
 */
export function addressKey(business: string | null | undefined): string | null {
  const tokens = normalizeAddress(business ?? '').split(' ').filter(Boolean);
  const zip = tokens[tokens.length - 1] ?? '';
  const house = tokens[0] ?? '';
  const street = tokens[1] ?? '';
  if (!/^\d{5}$/.test(zip) || zip === '00000' || !HOUSE_NUMBER.test(house) || /^0+$/.test(house.replace(/-/g, ''))) return null;
  if (tokens.length < 3 || street === 'PO' || street === 'BOX') return null;
  return `${house} ${street.slice(0, 3)} ${zip}`;
}
