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

const STATUS_WORDS: Readonly<Record<string, EventStatus>> = {
  OPEN: 'open',
  ACTIVE: 'open',
  CLOSE: 'closed',
  CLOSED: 'closed',
  RESOLVE: 'resolved',
  RESOLVED: 'resolved',
  DISMISSED: 'dismissed',
};

/** Open/Close/ACTIVE/RESOLVE... as an event status (null when the word is not known). */
export function statusFromWord(word: string | null): EventStatus | null {
  return word ? (STATUS_WORDS[word.toUpperCase()] ?? null) : null;
}
