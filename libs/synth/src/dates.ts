/**
 * Calendar arithmetic on day numbers (days since 1970-01-01, UTC) without Date objects: the
 * generator formats hundreds of millions of dates, so these are plain integer functions.
 */

export interface Ymd {
  readonly year: number;
  readonly month: number; // 1-12
  readonly day: number; // 1-31
}

/** Day number of a civil date (proleptic Gregorian). */
export function dayOf(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export function ymdOf(dayNumber: number): Ymd {
  const z = dayNumber + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** Parses `YYYY-MM-DD` strictly. */
export function parseIsoDay(text: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) throw new Error(`expected a date as YYYY-MM-DD, got "${text}"`);
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const d = dayOf(year, month, day);
  const back = ymdOf(d);
  if (back.month !== month || back.day !== day) throw new Error(`not a calendar date: "${text}"`);
  return d;
}

/** Months since January 1990 (the generator's month index). */
export function monthIndexOf(dayNumber: number): number {
  const { year, month } = ymdOf(dayNumber);
  return (year - 1990) * 12 + month - 1;
}

export function monthStart(monthIndex: number): number {
  return dayOf(1990 + Math.floor(monthIndex / 12), (monthIndex % 12) + 1, 1);
}

export function daysInMonth(monthIndex: number): number {
  return monthStart(monthIndex + 1) - monthStart(monthIndex);
}

export function yearOf(dayNumber: number): number {
  return ymdOf(dayNumber).year;
}

const PAD2: readonly string[] = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));

/** Format cache: the same few thousand days are formatted again and again. */
const mdyCache = new Map<number, string>();

/** `MM/DD/YYYY` */
export function mdy(dayNumber: number): string {
  let text = mdyCache.get(dayNumber);
  if (text === undefined) {
    const { year, month, day } = ymdOf(dayNumber);
    text = `${PAD2[month]}/${PAD2[day]}/${year}`;
    mdyCache.set(dayNumber, text);
  }
  return text;
}

/** `M/D/YYYY` (no zero padding, as in the DOB vacate order file). */
export function mdyUnpadded(dayNumber: number): string {
  const { year, month, day } = ymdOf(dayNumber);
  return `${month}/${day}/${year}`;
}

/** `D/M/YYYY`: day first. */
export function dmyUnpadded(dayNumber: number): string {
  const { year, month, day } = ymdOf(dayNumber);
  return `${day}/${month}/${year}`;
}

/** `YYYYMMDD` */
export function ymdCompact(dayNumber: number): string {
  const { year, month, day } = ymdOf(dayNumber);
  return `${year}${PAD2[month]}${PAD2[day]}`;
}

/** `YYYY-MM-DD` */
export function isoDay(dayNumber: number): string {
  const { year, month, day } = ymdOf(dayNumber);
  return `${year}-${PAD2[month]}-${PAD2[day]}`;
}

/** `MM/YYYY` */
export function monthYear(dayNumber: number): string {
  const { year, month } = ymdOf(dayNumber);
  return `${PAD2[month]}/${year}`;
}

/** `MM/DD/YYYY hh:mm:ss AM` with seconds of the day in [0, 86400). */
export function mdyTime(dayNumber: number, secondOfDay: number): string {
  const s = Math.max(0, Math.min(86399, Math.floor(secondOfDay)));
  const hour24 = Math.floor(s / 3600);
  const minute = Math.floor((s % 3600) / 60);
  const second = s % 60;
  const hour12 = hour24 % 12 === 0 ? 12 : hour24 % 12;
  return `${mdy(dayNumber)} ${PAD2[hour12]}:${PAD2[minute]}:${PAD2[second]} ${hour24 < 12 ? 'AM' : 'PM'}`;
}

/** Heat season: October 1 to May 31. */
export function inHeatSeason(dayNumber: number): boolean {
  const { month } = ymdOf(dayNumber);
  return month >= 10 || month <= 5;
}

export function isHeatSeasonMonth(monthIndex: number): boolean {
  const month = (monthIndex % 12) + 1;
  return month >= 10 || month <= 5;
}
