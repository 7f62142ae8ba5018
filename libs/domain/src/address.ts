/**
 * Normalizes a New York street address the same way for stored addresses and for what people type,
 * so that `123 w 45th st`, `123 W. 45TH STREET` and `123 WEST 45 STREET` all become
 * `123 WEST 45 STREET`. Queens hyphenated house numbers (`104-12`) are kept.
 */

import { STREET_SUFFIXES } from './street-suffixes';

const DIRECTIONS: Record<string, string> = { N: 'NORTH', S: 'SOUTH', E: 'EAST', W: 'WEST' };

// USPS Publication 28's suffix spellings (street-suffixes.ts), and `BL`, which the city's own files write
const STREET_TYPES: Record<string, string> = { ...STREET_SUFFIXES, BL: 'BOULEVARD' };

const ORDINAL_WORDS: Record<string, string> = {
  FIRST: '1', SECOND: '2', THIRD: '3', FOURTH: '4', FIFTH: '5', SIXTH: '6', SEVENTH: '7', EIGHTH: '8',
  NINTH: '9', TENTH: '10', ELEVENTH: '11', TWELFTH: '12',
};

const ORDINAL_SUFFIX = /^(\d+)(ST|ND|RD|TH)$/;

function normalizeToken(token: string, index: number, tokens: string[]): string {
  const ordinal = ORDINAL_SUFFIX.exec(token);
  if (ordinal) return ordinal[1];
  if (ORDINAL_WORDS[token]) return ORDINAL_WORDS[token];
  const isLast = index === tokens.length - 1;
  // "ST" before more words is "SAINT" (ST MARKS PLACE); as the last word it is "STREET"
  if (token === 'ST' && !isLast && index > 0) return 'SAINT';
  if (STREET_TYPES[token] && (isLast || index > 1)) return STREET_TYPES[token];
  // a lone direction letter after the house number: W 45 -> WEST 45
  if (DIRECTIONS[token] && index <= 1 && !isLast) return DIRECTIONS[token];
  return token;
}

export function normalizeAddress(input: string | null | undefined): string {
  if (!input) return '';
  const cleaned = input
    .toUpperCase()
    .replace(/[.,#'"]/g, ' ')
    .replace(/\s*-\s*/g, '-')
    .replace(/[^A-Z0-9\- ]/g, ' ')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  return cleaned.map((token, i) => normalizeToken(token, i, cleaned)).join(' ');
}

/** Words of normalized addresses found in a large share of all addresses: directions and street types. */
const COMMON_ADDRESS_WORDS: ReadonlySet<string> = new Set([...Object.values(DIRECTIONS), ...Object.values(STREET_TYPES), 'SAINT']);

/**
 * The words of a normalized address that narrow a substring match (`LIKE '%...%'`) through the trigram
 * index: not a direction or street type, and either 3 characters or more, or inside the query (a word
 * between two others gives trigrams with the spaces around it; a word at either end touches the
 * wildcard and gives none when shorter than 3). A query without one (`Q A`, `AVENUE X`) matches through
 * trigrams that most addresses have, so the index cannot keep its cost below a scan of the city.
 */
export function narrowingAddressWords(normalized: string): string[] {
  const words = normalized.split(' ').filter(Boolean);
  return words.filter((word, i) => !COMMON_ADDRESS_WORDS.has(word) && (word.length >= 3 || (i > 0 && i < words.length - 1)));
}

/** The five boroughs and the names the Postal Service gives their mail (Publication 28 last lines). */
const CITY_NAMES = ['NEW YORK', 'NEW YORK CITY', 'NYC', 'MANHATTAN', 'BROOKLYN', 'BRONX', 'THE BRONX', 'QUEENS', 'STATEN ISLAND'];
const STATE = /^(NY|N Y|NEW YORK|NEW YORK STATE)$/;
const ZIP = /^\d{5}(-\d{4})?$/;

/**
 * The delivery line of an address pasted with its last line (`347 Lexington Ave, New York, NY 10013`,
 * `347 Lexington Ave New York NY 10013`): the city, state and ZIP Code after it are left out, as are an
 * apartment or unit after a comma. Text without a last line is returned as it is.
 */
export function deliveryLine(input: string): string {
  const parts = input.toUpperCase().split(',').map((part) => part.trim()).filter(Boolean);
  if (parts.length > 1) return parts[0];
  let words = (parts[0] ?? '').replace(/[.]/g, ' ').split(/\s+/).filter(Boolean);
  if (words.length > 2 && ZIP.test(words[words.length - 1])) words = words.slice(0, -1);
  if (words.length > 2 && words[words.length - 1] === 'NY') words = words.slice(0, -1);
  for (const city of CITY_NAMES) {
    const n = city.split(' ').length;
    // only after a street type: `NEW YORK AVENUE` and `QUEENS BOULEVARD` are streets
    if (words.length > n + 1 && words.slice(-n).join(' ') === city && STREET_TYPES[words[words.length - n - 1]]) {
      words = words.slice(0, -n);
      break;
    }
  }
  return STATE.test(words.join(' ')) ? '' : words.join(' ');
}
