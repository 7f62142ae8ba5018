import { BoroughCode, parseBbl, parseBorough } from '@bhis/domain';

/**
 * Forgiving typed casts shared by every source. Each cast returns `{ ok: true, value }` (value null
 * when the input is empty or a known placeholder) or `{ ok: false }` when the text cannot be read;
 * callers count the failures per column (see RowFields) instead of silently turning them into null.
 * No cast ever throws, whatever the input.
 */
export type Cast<T> = { ok: true; value: T | null } | { ok: false };

const EMPTY: Cast<never> = { ok: true, value: null };
const FAILED: Cast<never> = { ok: false };
const ok = <T>(value: T): Cast<T> => ({ ok: true, value });

/** Values the publishers use for "no value". Compared after trimming and upper-casing. */
export const PLACEHOLDERS: ReadonlySet<string> = new Set(['', 'N/A', 'NA', 'XXXX', 'XXX', 'NULL', 'NONE', 'UNSPECIFIED', '-']);

const LONGEST_PLACEHOLDER = Math.max(...[...PLACEHOLDERS].map((p) => p.length));

/** The first characters of the placeholders, upper-cased: a value starting otherwise is none (no upper-casing for it). */
const PLACEHOLDER_STARTS: ReadonlySet<number> = new Set([...PLACEHOLDERS].filter((p) => p !== '').map((p) => p.charCodeAt(0)));

export function isPlaceholder(raw: string | null | undefined): boolean {
  if (raw === null || raw === undefined) return true;
  const text = raw.trim();
  if (text.length === 0) return true;
  // most values are longer than any placeholder, or start otherwise
  if (text.length > LONGEST_PLACEHOLDER) return false;
  const first = text.charCodeAt(0);
  if (!PLACEHOLDER_STARTS.has(first >= 97 && first <= 122 ? first - 32 : first)) return false;
  return PLACEHOLDERS.has(text.toUpperCase());
}

const SPACE_RUN = /\s\s|[^\S ]/;

/** Trimmed text with internal runs of spaces collapsed; placeholders become null. */
export function castText(raw: string | null | undefined): Cast<string> {
  if (isPlaceholder(raw)) return EMPTY;
  const text = (raw as string).trim();
  return ok(SPACE_RUN.test(text) ? text.replace(/\s+/g, ' ') : text);
}

// ---------------------------------------------------------------------------------------------
// Dates

export interface DateCastOptions {
  /** Read `a/b/YYYY` as day/month (the column is declared day-first). */
  dayFirst?: boolean;
  /** Earliest accepted year: anything before (e.g. `0201`) is a typo, rejected rather than guessed. */
  minYear?: number;
  /** Latest accepted year: beyond it the date is a typo or a placeholder (e.g. 9999). */
  maxYear?: number;
}

export const DEFAULT_MIN_YEAR = 1800;
/** Default upper bound: registration end dates and inspection cycles legitimately run a few years ahead. */
export const DEFAULT_FUTURE_YEARS = 10;

const SLASH_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:[ T]+(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*([AaPp][Mm])?)?$/;
const COMPACT_DATE = /^(\d{4})(\d{2})(\d{2})$/;
const MONTH_YEAR = /^(\d{1,2})\/(\d{4})$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  if (month !== 2) return DAYS_IN_MONTH[month - 1];
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
}

function isoDate(year: number, month: number, day: number, options: DateCastOptions): Cast<string> {
  const minYear = options.minYear ?? DEFAULT_MIN_YEAR;
  const maxYear = options.maxYear ?? new Date().getUTCFullYear() + DEFAULT_FUTURE_YEARS;
  if (year < minYear || year > maxYear) return FAILED;
  if (month < 1 || month > 12 || day < 1) return FAILED;
  if (day > daysInMonth(year, month)) return FAILED;
  return ok(`${year < 1000 ? String(year).padStart(4, '0') : year}-${month < 10 ? '0' : ''}${month}-${day < 10 ? '0' : ''}${day}`);
}

function validTime(hours: string | undefined, minutes: string | undefined, meridiem: string | undefined): boolean {
  if (hours === undefined) return true;
  const h = Number(hours);
  const m = Number(minutes);
  if (m > 59) return false;
  return meridiem ? h >= 1 && h <= 12 : h <= 23;
}

/** The digit at `i` of `text`, or -1. */
function digit(text: string, i: number): number {
  const c = text.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -1;
}

/** The two-digit number at `i` of `text`, or -1. */
function twoDigits(text: string, i: number): number {
  const a = digit(text, i);
  const b = digit(text, i + 1);
  return a < 0 || b < 0 ? -1 : a * 10 + b;
}

/**
 * The publishers' two fixed forms, `MM/DD/YYYY` and `MM/DD/YYYY hh:mm:ss AM`, read without a regular
 * expression (the dates of a file are most of its values); null for any other text, which SLASH_DATE
 * and the other forms then read. The result is the one SLASH_DATE gives (casts.spec.ts compares both).
 */
function fixedSlashDate(text: string, options: DateCastOptions): Cast<string> | null {
  if ((text.length !== 10 && text.length !== 22) || text.charCodeAt(2) !== 47 || text.charCodeAt(5) !== 47) return null;
  const first = twoDigits(text, 0);
  const second = twoDigits(text, 3);
  const century = twoDigits(text, 6);
  const years = twoDigits(text, 8);
  if (first < 0 || second < 0 || century < 0 || years < 0) return null;
  if (text.length === 22) {
    // ` hh:mm:ss AM`: the minutes at most 59, the hour 1-12 (the seconds are not checked, as by SLASH_DATE)
    if (text.charCodeAt(10) !== 32 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58 || text.charCodeAt(19) !== 32) return null;
    const hours = twoDigits(text, 11);
    const minutes = twoDigits(text, 14);
    const meridiem = text.charCodeAt(20) | 0x20;
    if (hours < 0 || minutes < 0 || twoDigits(text, 17) < 0 || (meridiem !== 97 && meridiem !== 112) || (text.charCodeAt(21) | 0x20) !== 109) return null;
    if (minutes > 59 || hours < 1 || hours > 12) return FAILED;
  }
  const year = century * 100 + years;
  return options.dayFirst ? isoDate(year, second, first, options) : isoDate(year, first, second, options);
}

/**
 * Reads a date in any of the publishers' formats and returns `YYYY-MM-DD` (the time of day is
 * dropped): `MM/DD/YYYY`, `M/D/YYYY`, `MM/DD/YYYY hh:mm:ss AM`, `YYYYMMDD`, `MM/YYYY` (first of
 * the month), ISO `YYYY-MM-DD` with or without a time.
 */
export function castDate(raw: string | null | undefined, options: DateCastOptions = {}): Cast<string> {
  if (isPlaceholder(raw)) return EMPTY;
  const text = (raw as string).trim();
  const fixed = fixedSlashDate(text, options);
  if (fixed !== null) return fixed;
  let m = SLASH_DATE.exec(text);
  if (m) {
    if (!validTime(m[4], m[5], m[7])) return FAILED;
    const [first, second] = [Number(m[1]), Number(m[2])];
    return options.dayFirst
      ? isoDate(Number(m[3]), second, first, options)
      : isoDate(Number(m[3]), first, second, options);
  }
  m = ISO_DATE.exec(text);
  if (m) {
    if (!validTime(m[4], m[5], undefined)) return FAILED;
    return isoDate(Number(m[1]), Number(m[2]), Number(m[3]), options);
  }
  m = COMPACT_DATE.exec(text);
  if (m) return isoDate(Number(m[1]), Number(m[2]), Number(m[3]), options);
  m = MONTH_YEAR.exec(text);
  if (m) return isoDate(Number(m[2]), Number(m[1]), 1, options);
  return FAILED;
}

// ---------------------------------------------------------------------------------------------
// Numbers

const DECIMAL = /^[-+]?(\d+(\.\d*)?|\.\d+)$/;

function numericText(raw: string): string {
  // "1,700", "$37300.00", "  42 " -> plain digits; thousands separators only between digit groups
  const trimmed = raw.trim().replace(/^\$/, '').replace(/^([-+])\$/, '$1');
  return /^[-+]?\d{1,3}(,\d{3})+(\.\d*)?$/.test(trimmed) ? trimmed.replace(/,/g, '') : trimmed;
}

export function castDecimal(raw: string | null | undefined): Cast<number> {
  if (isPlaceholder(raw)) return EMPTY;
  const text = numericText(raw as string);
  if (!DECIMAL.test(text)) return FAILED;
  const value = Number(text);
  return Number.isFinite(value) ? ok(value) : FAILED;
}

/** The range of a Postgres `integer`: the columns integers are stored in (a value beyond would fail the COPY of the whole file). */
const INT4_MAX = 2_147_483_647;

/** An integer a Postgres `integer` holds, accepting thousands separators and an all-zero fraction (`12.00`). */
export function castInt(raw: string | null | undefined): Cast<number> {
  const cast = castDecimal(raw);
  if (!cast.ok || cast.value === null) return cast;
  return Number.isInteger(cast.value) && Math.abs(cast.value) <= INT4_MAX ? cast : FAILED;
}

const TRUE_WORDS = new Set(['Y', 'YES', 'TRUE', 'T', '1']);
const FALSE_WORDS = new Set(['N', 'NO', 'FALSE', 'F', '0']);

export function castBoolean(raw: string | null | undefined): Cast<boolean> {
  if (isPlaceholder(raw)) return EMPTY;
  const word = (raw as string).trim().toUpperCase();
  if (TRUE_WORDS.has(word)) return ok(true);
  if (FALSE_WORDS.has(word)) return ok(false);
  return FAILED;
}

// ---------------------------------------------------------------------------------------------
// Places

/** Borough in any spelling (1-5, MN, BX, BROOKLYN, QNS., STATEN IS...). `NOT NYC` and 0 fail. */
export function castBorough(raw: string | null | undefined): Cast<BoroughCode> {
  if (isPlaceholder(raw)) return EMPTY;
  const code = parseBorough(raw);
  return code === null ? FAILED : ok(code);
}

function paddedNumber(raw: string, min: number, max: number): Cast<number> {
  const text = raw.trim().replace(/\.0+$/, '');
  if (!/^\d{1,9}$/.test(text)) return FAILED;
  const value = Number(text);
  return value >= min && value <= max ? ok(value) : FAILED;
}

/** Tax block, zero-padded to any width; 0 is not a block. */
export function castBlock(raw: string | null | undefined): Cast<number> {
  if (isPlaceholder(raw)) return EMPTY;
  return paddedNumber(raw as string, 1, 99999);
}

/** Tax lot, zero-padded to any width (DOB pads to 5 characters). */
export function castLot(raw: string | null | undefined): Cast<number> {
  if (isPlaceholder(raw)) return EMPTY;
  return paddedNumber(raw as string, 0, 9999);
}

/** The million BINs (1000000, 2000000... 5000000) are placeholders for "no building yet". */
export function isPlaceholderBin(bin: number): boolean {
  return bin % 1_000_000 === 0;
}

/** Building Identification Number: 7 digits, first digit the borough; 0 and placeholders are null. */
export function castBin(raw: string | null | undefined): Cast<number> {
  if (isPlaceholder(raw)) return EMPTY;
  const text = (raw as string).trim().replace(/\.0+$/, '');
  if (/^0+$/.test(text)) return EMPTY;
  if (!/^[1-5]\d{6}$/.test(text)) return FAILED;
  const bin = Number(text);
  return isPlaceholderBin(bin) ? EMPTY : ok(bin);
}

/** A published BBL column: 10 digits (a trailing `.0`/`.00` from a numeric export is accepted). */
export function castBbl(raw: string | null | undefined): Cast<string> {
  if (isPlaceholder(raw)) return EMPTY;
  const text = (raw as string).trim().replace(/\.0+$/, '');
  if (/^0+$/.test(text)) return EMPTY;
  const parsed = parseBbl(text);
  return parsed.ok ? ok(parsed.value.bbl) : FAILED;
}

export interface Coordinates {
  latitude: number;
  longitude: number;
}

/**
 * Latitude/longitude pair. (0,0) is "not geocoded" (null). Values scaled by 1e6, as in the compiled
 * marshal evictions file (`40866075.00000000`), are divided back.
 */
export function castCoordinates(rawLatitude: string | null | undefined, rawLongitude: string | null | undefined): Cast<Coordinates> {
  const lat = castDecimal(rawLatitude);
  const lon = castDecimal(rawLongitude);
  if (!lat.ok || !lon.ok) return FAILED;
  if (lat.value === null || lon.value === null) return lat.value === null && lon.value === null ? EMPTY : FAILED;
  if (lat.value === 0 && lon.value === 0) return EMPTY;
  let [latitude, longitude] = [lat.value, lon.value];
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) {
    latitude /= 1e6;
    longitude /= 1e6;
  }
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180 || latitude === 0 || longitude === 0) return FAILED;
  return ok({ latitude, longitude });
}

