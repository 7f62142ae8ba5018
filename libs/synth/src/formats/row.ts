import type { Building } from '../buildings';
import { mdy } from '../dates';
import { NEVER } from '../records';

/** Splits a header line into column names (handles the quoted PLUTO/HPD jurisdiction headers). */
export function splitHeader(header: string): string[] {
  const columns: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < header.length; i++) {
    const ch = header[i];
    if (quoted) {
      if (ch === '"' && header[i + 1] === '"') {
        current += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else current += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      columns.push(current);
      current = '';
    } else current += ch;
  }
  columns.push(current);
  return columns;
}

export type RowValues = Readonly<Record<string, string>>;

/**
 * Builds rows in header order from values keyed by column name; an unknown column name throws, so
 * a typo cannot silently leave a column blank.
 */
export function rowBuilder(header: string): (values: RowValues) => string[] {
  const columns = splitHeader(header);
  const index = new Map(columns.map((name, i) => [name, i] as const));
  return (values) => {
    const row = new Array<string>(columns.length).fill('');
    for (const key in values) {
      const i = index.get(key);
      if (i === undefined) throw new Error(`unknown column "${key}"`);
      row[i] = values[key];
    }
    return row;
  };
}

/** `MM/DD/YYYY` or blank for NEVER / dates after the as-of date. */
export function mdyIfBy(day: number, asOf: number): string {
  return day === NEVER || day > asOf ? '' : mdy(day);
}

export function fixed(value: number, digits: number): string {
  return value.toFixed(digits);
}

export function bin(building: Building, binIndex: number): string {
  return building.bins[Math.min(binIndex, building.bins.length - 1)];
}

export function hpdBuildingId(building: Building, binIndex: number): string {
  return String(building.hpdBuildingIds[Math.min(binIndex, building.hpdBuildingIds.length - 1)]);
}

/** Community district as DOB writes it: borough digit + two-digit board (`414`). */
export function dobCommunityBoard(building: Building): string {
  return `${building.borough.code}${String(building.zone.communityBoard).padStart(2, '0')}`;
}

export function money(value: number): string {
  return value === 0 ? '.00' : value.toFixed(2);
}

/** Thousands separators, as PLUTO writes areas (`1,700`). */
export function thousands(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}
