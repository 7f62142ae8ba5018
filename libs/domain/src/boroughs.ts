export type BoroughCode = 1 | 2 | 3 | 4 | 5;

export const BOROUGH_NAMES: Readonly<Record<BoroughCode, string>> = {
  1: 'Manhattan',
  2: 'Bronx',
  3: 'Brooklyn',
  4: 'Queens',
  5: 'Staten Island',
};

/** City name used in postal addresses (Manhattan mail goes to "New York"). */
export const BOROUGH_CITIES: Readonly<Record<BoroughCode, string>> = {
  1: 'NEW YORK',
  2: 'BRONX',
  3: 'BROOKLYN',
  4: 'QUEENS',
  5: 'STATEN ISLAND',
};

export function isBoroughCode(value: number): value is BoroughCode {
  return Number.isInteger(value) && value >= 1 && value <= 5;
}

const BOROUGH_ALIASES: Readonly<Record<string, BoroughCode>> = {
  '1': 1, MN: 1, MANHATTAN: 1, 'NEW YORK': 1, NY: 1, MH: 1, MAN: 1,
  '2': 2, BX: 2, BRONX: 2, 'THE BRONX': 2,
  '3': 3, BK: 3, BROOKLYN: 3, KINGS: 3, BKLYN: 3,
  '4': 4, QN: 4, QNS: 4, QUEENS: 4, QU: 4,
  '5': 5, SI: 5, 'STATEN ISLAND': 5, 'STATEN IS': 5, RICHMOND: 5, ST: 5,
};

/**
 * Reads a borough in any spelling the city's files use (1-5, MN/BX/BK/QN/SI, BRONX, QNS., STATEN IS...).
 * Returns null for anything else, including "NOT NYC" and 0.
 */
export function parseBorough(raw: string | number | null | undefined): BoroughCode | null {
  if (raw === null || raw === undefined) return null;
  const key = String(raw).trim().toUpperCase().replace(/\.$/, '').replace(/\s+/g, ' ');
  if (key === '') return null;
  return BOROUGH_ALIASES[key] ?? null;
}
