import { EventStatus } from '@bhis/domain';
import { normalizeHeaderName } from '../header';

/**
 * SODA field names for a header: the API's field name is the display name lower-cased with every run
 * of other characters turned into `_` (`Received Date` -> `received_date`, `ViolationID` ->
 * `violationid`). Where the publisher chose other names, `overrides` gives them.
 */
export function sodaFieldsFor(header: readonly string[], overrides: Record<string, string> = {}): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const name of header.map(normalizeHeaderName)) {
    fields[name] =
      overrides[name] ??
      name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '_')
        .replace(/^_+|_+$/g, '');
  }
  return fields;
}

/** Splits a published header line (as copied from the file) into its column names. */
export function headerOf(line: string): string[] {
  return line.split(',').map((name) => name.replace(/^"|"$/g, ''));
}

/**
 * The open/closed words the city's status columns use (HPD `Open`/`Close`, DOB `ACTIVE`/`CLOSED`,
 * ECB `ACTIVE`/`RESOLVE`), read with `RowFields.word`: a word outside the list maps to no status and
 * is counted in the run's `unmapped_values`, so a new word shows instead of vanishing.
 */
export const STATUS_WORDS: Readonly<Record<string, EventStatus | null>> = {
  OPEN: 'open',
  ACTIVE: 'open',
  CLOSE: 'closed',
  CLOSED: 'closed',
  RESOLVE: 'resolved',
  RESOLVED: 'resolved',
  DISMISSED: 'dismissed',
};
