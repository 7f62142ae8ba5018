/** A declared column name as the mappers read it: BOM and padding removed (`Block ` -> `Block`). */
export function normalizeHeaderName(name: string): string {
  return name.replace(/^\uFEFF/, '').trim();
}

/**
 * The key header names are matched by: BOM and padding removed, runs of spaces and underscores
 * collapsed to one space, case folded. `Re-infested  Dwelling Unit Count` and
 * `re-infested dwelling unit count ` are the same column, and so are a field-style name and its
 * display form (`tr6_no`, `TR6 NO`); the raw name is kept for reports.
 */
export function headerKey(name: string): string {
  return normalizeHeaderName(name).replace(/[\s_]+/g, ' ').toLowerCase();
}

export interface HeaderDiff {
  missing: string[];
  unexpected: string[];
}

export interface HeaderMatch extends HeaderDiff {
  /** For each column of the file, the index of the expected column it is, or null. */
  positions: (number | null)[];
}

/**
 * Pairs a file's columns with an expected header by name, never by position: an exact (trimmed)
 * name first, then the normalised name (headerKey) when exactly one expected column has it. Two
 * expected names that differ only in case (`Bin` and `BIN` in an old DOB NOW export) therefore
 * match only exactly; anything else left over is missing or unexpected.
 */
export function matchHeader(expected: readonly string[], actual: readonly string[]): HeaderMatch {
  const trimmed = expected.map(normalizeHeaderName);
  const keyCount = new Map<string, number>();
  for (const name of expected) keyCount.set(headerKey(name), (keyCount.get(headerKey(name)) ?? 0) + 1);
  const taken = new Set<number>();
  const positions: (number | null)[] = actual.map(() => null);
  actual.forEach((name, i) => {
    const exact = trimmed.findIndex((candidate, j) => !taken.has(j) && candidate === normalizeHeaderName(name));
    if (exact !== -1) {
      taken.add(exact);
      positions[i] = exact;
    }
  });
  actual.forEach((name, i) => {
    if (positions[i] !== null) return;
    const key = headerKey(name);
    if (keyCount.get(key) !== 1) return;
    const j = expected.findIndex((candidate) => headerKey(candidate) === key);
    if (taken.has(j)) return;
    taken.add(j);
    positions[i] = j;
  });
  return {
    positions,
    missing: trimmed.filter((_, j) => !taken.has(j)),
    unexpected: actual.filter((_, i) => positions[i] === null).map(normalizeHeaderName),
  };
}

/** Compares a file's header with an expected one (see matchHeader): order does not matter. */
export function diffHeader(expected: readonly string[], actual: readonly string[]): HeaderDiff {
  const { missing, unexpected } = matchHeader(expected, actual);
  return { missing, unexpected };
}

/** Names of a header that normalise to the same key (two columns we could not tell apart by key). */
export function repeatedHeaderNames(header: readonly string[]): string[] {
  const seen = new Map<string, string>();
  const repeated: string[] = [];
  for (const name of header) {
    const key = headerKey(name);
    const first = seen.get(key);
    if (first !== undefined) repeated.push(`${first} / ${normalizeHeaderName(name)}`);
    else seen.set(key, normalizeHeaderName(name));
  }
  return repeated;
}

export function headersMatch(expected: readonly string[], actual: readonly string[]): boolean {
  const diff = diffHeader(expected, actual);
  return diff.missing.length === 0 && diff.unexpected.length === 0;
}

/** The file's header is not the one the source definition declares (nor one of its known variants). */
export class HeaderMismatchError extends Error {
  override readonly name = 'HeaderMismatchError';

  constructor(
    readonly source: string,
    readonly part: string,
    readonly missing: readonly string[],
    readonly unexpected: readonly string[],
    /** The file's own header, when it had one (a wrong file is matched against the other sources with it). */
    readonly header: readonly string[] = [],
  ) {
    super(
      `header of ${source} (${part}) does not match its definition: ` +
        `missing columns [${missing.join(', ')}]; unexpected columns [${unexpected.join(', ')}]`,
    );
  }
}
