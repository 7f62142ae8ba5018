/** Calendar arithmetic on YYYY-MM-DD strings in UTC days: no clock reads, no time zones. */

const MS_PER_DAY = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})/;

/** Days since 1970-01-01 of a `YYYY-MM-DD` date (a longer ISO timestamp is cut to its date). NaN if unreadable. */
export function dayNumber(date: string): number {
  const match = ISO_DATE.exec(date);
  if (!match) return Number.NaN;
  return Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / MS_PER_DAY;
}

export function formatDay(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

/**
 * `date` moved by `months` calendar months, clamping the day to the end of the target month
 * (2024-05-31 minus 3 months is 2024-02-29), as PostgreSQL's `date - interval 'n months'` does.
 */
export function addMonths(date: string, months: number): string {
  const match = ISO_DATE.exec(date);
  if (!match) throw new Error(`not a YYYY-MM-DD date: ${date}`);
  const monthIndex = Number(match[1]) * 12 + Number(match[2]) - 1 + months;
  const year = Math.floor(monthIndex / 12);
  const month = monthIndex - year * 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(Number(match[3]), lastDay);
  return `${String(year).padStart(4, '0')}-${String(month + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
