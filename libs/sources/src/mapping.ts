import { NormalizedEvent } from '@bhis/domain';
import { QuarantineReason, RecordOutcome } from './definition';
import { SourceFacts } from './facts';
import { RowFields } from './row-fields';

/** Small helpers the source mappers share. */

export function emit(events: NormalizedEvent[], facts: SourceFacts[] = []): RecordOutcome {
  return { kind: 'ok', events, facts };
}

export function facts(...items: SourceFacts[]): RecordOutcome {
  return { kind: 'ok', events: [], facts: items };
}

export function quarantine(reason: QuarantineReason, detail?: string): RecordOutcome {
  return detail ? { kind: 'quarantined', reason, detail } : { kind: 'quarantined', reason };
}

export function notRelevant(reason: string): RecordOutcome {
  return { kind: 'not_relevant', reason };
}

export type RequiredDate = { ok: true; date: string } | { ok: false; outcome: RecordOutcome };

/** The date an event cannot do without: a blank or unreadable value quarantines the record. */
export function requireDate(f: RowFields, ...columns: string[]): RequiredDate {
  for (const column of columns) {
    const date = f.date(column);
    if (date) return { ok: true, date };
  }
  const failed = columns.filter((column) => f.failed(column));
  return failed.length > 0
    ? { ok: false, outcome: quarantine('invalid_date', `unreadable ${failed.join(', ')}`) }
    : { ok: false, outcome: quarantine('missing_date', `blank ${columns.join(', ')}`) };
}

/**
 * A record's id for its attributes: a number, as the city's ids are, or the text itself when it is
 * not a whole number a double holds exactly (`Number` would store null for `V-12`).
 */
export function recordIdValue(recordKey: string): number | string {
  return /^\d{1,15}$/.test(recordKey) ? Number(recordKey) : recordKey;
}

/** Drops null/undefined entries so the stored attributes stay small. */
export function attributes(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // for-in: no array of entries per record (the values are an object literal: own keys only)
  for (const key in values) {
    const value = values[key];
    if (value !== null && value !== undefined && value !== '') out[key] = value;
  }
  return out;
}

/** A key made of several columns; null when any part is blank. */
export function compositeKey(...parts: Array<string | number | null | undefined>): string | null {
  if (parts.some((part) => part === null || part === undefined || String(part).trim() === '')) return null;
  return parts.map((part) => String(part).trim()).join(':');
}

/** `761 CLARENCE AVENUE` -> house number `761`, street `CLARENCE AVENUE` (`198-06 100 AVENUE` too). */
export function splitAddress(address: string | null): { house_number: string | null; street_name: string | null } {
  if (!address) return { house_number: null, street_name: null };
  const match = /^(\d[\dA-Z]*(?:-\d+[A-Z]?)?(?:\s+1\/2)?)\s+(.+)$/.exec(address);
  return match ? { house_number: match[1], street_name: match[2] } : { house_number: null, street_name: address };
}

/** Joins the non-empty parts of an address or a name with a space. */
export function joinText(...parts: Array<string | null>): string | null {
  const text = parts.filter((part): part is string => Boolean(part)).join(' ');
  return text === '' ? null : text;
}

/**
 * Removes the publisher's trailing fill (`ILLEGAL CONVERSION      +`, `... ISSUED      P`): a lone
 * character after a long run of spaces, or a final `+`. Works on the raw text, before spaces collapse.
 */
export function stripFill(raw: string): string | null {
  const cleaned = raw
    .replace(/\s{2,}\S?$/, '')
    .replace(/\s*\+$/, '')
    .trim()
    .replace(/\s+/g, ' ');
  return cleaned === '' ? null : cleaned.toUpperCase();
}

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})(?:T00:00:00(?:\.000)?)?$/;

/**
 * A date as it goes into a record key, the same through both paths: the CSV export writes
 * `10/24/0201`, the JSON API `0201-10-24T00:00:00.000`; both give `10/24/0201` (the CSV spelling,
 * so keys stored from CSV loads stay as they are). Read without bounds: impossible years are kept.
 */
export function dateKeyText(raw: string): string {
  const m = ISO_DAY.exec(raw.trim());
  return m ? `${m[2]}/${m[3]}/${m[1]}` : raw.trim();
}

const SLASH_DAY = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s+\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AP]M)?)?$/i;
const ISO_DAY_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?$/;

/**
 * The day of a date and time as it goes into a record key, the same through both paths: the CSV
 * export writes `06/07/2023 04:36:13 PM`, the JSON API `2023-06-07T16:36:13.000`; both give
 * `2023-06-07`, the event's `occurred_on`. Text in no known shape is kept as it is (trimmed).
 */
export function dayKeyText(raw: string): string {
  const text = raw.trim();
  const slash = SLASH_DAY.exec(text);
  if (slash) return `${slash[3]}-${slash[1].padStart(2, '0')}-${slash[2].padStart(2, '0')}`;
  const iso = ISO_DAY_TIME.exec(text);
  return iso ? `${iso[1]}-${iso[2]}-${iso[3]}` : text;
}
