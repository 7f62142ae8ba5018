import { canonicalColumn, getSource } from '@bhis/sources';
import { csvLine } from '../csv';
import { HEADERS, type SourceKey } from './headers';
import { splitHeader } from './row';

/** Sources written in their oldest declared layout when older layouts are asked for (besides the 2010-2019 311 set). */
export const OLDER_LAYOUT_SOURCES = ['pluto', 'hpd_violations', 'dob_safety_violations', 'dob_now_job_filings', 'dohmh_rodents'] as const satisfies readonly SourceKey[];

export interface OlderLayout {
  header: string;
  /** Rewrites a line of the current layout in the older one (lines of another width are kept as they are). */
  line: (line: string) => string;
}

/**
 * The oldest header variant the source definition declares, and each line's values moved to its
 * columns by canonical name: columns the older layout lacks are dropped, columns only it has are blank.
 */
export function olderLayout(key: (typeof OLDER_LAYOUT_SOURCES)[number]): OlderLayout {
  const part = getSource(key).parts[0];
  const older = part.headerVariants[part.headerVariants.length - 1];
  const current = splitHeader(HEADERS[key]);
  const at = new Map(current.map((name, i) => [canonicalColumn(part, name), i] as const));
  const from = older.map((name) => at.get(canonicalColumn(part, name)) ?? -1);
  return {
    header: older.join(','),
    line: (line) => {
      const values = splitHeader(line.replace(/\n$/, ''));
      if (values.length !== current.length) return line;
      return csvLine(from.map((i) => (i === -1 ? '' : values[i])));
    },
  };
}
