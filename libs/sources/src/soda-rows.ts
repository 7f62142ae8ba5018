import { parse as parseCsv } from 'csv-parse/sync';
import type { SourcePart } from './definition';
import { canonicalColumn } from './layout';
import { matchSodaFields, PublishedColumn } from './soda-fields';

const SLASH_DATE_TIME = /^(\d{2})\/(\d{2})\/(\d{4})(?: (\d{2}):(\d{2}):(\d{2}) ([AP]M))?$/;

/** `06/07/2023 04:36:13 PM` -> `2023-06-07T16:36:13.000`, as the JSON API writes a date. */
export function isoTimestamp(value: string): string {
  const m = SLASH_DATE_TIME.exec(value.trim());
  if (!m) return value;
  const hour = m[4] ? (Number(m[4]) % 12) + (m[7] === 'PM' ? 12 : 0) : 0;
  return `${m[3]}-${m[1]}-${m[2]}T${String(hour).padStart(2, '0')}:${m[5] ?? '00'}:${m[6] ?? '00'}.000`;
}

/**
 * CSV rows as the SODA JSON API serves them, for stand-ins of Open Data (tests, a local mirror):
 * each column under the field name the data set's view metadata (`columns`) gives it, blanks left
 * out. A file of an older layout is written in the published fields of its columns.
 */
export function csvToSodaRows(part: SourcePart, text: string, columns: readonly PublishedColumn[], options: { isoDates?: boolean } = {}): Record<string, string>[] {
  const { fields } = matchSodaFields(part, columns).map;
  const rows = parseCsv(text, { columns: true, bom: true, relax_column_count: true, skip_empty_lines: true }) as Record<string, string>[];
  return rows.map((row) => {
    const json: Record<string, string> = {};
    for (const [name, value] of Object.entries(row)) {
      const field = fields.get(canonicalColumn(part, name));
      if (field !== undefined && value !== '') json[field] = options.isoDates ? isoTimestamp(value) : value;
    }
    return json;
  });
}
