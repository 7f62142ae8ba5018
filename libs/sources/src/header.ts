/** Header names are compared trimmed (real headers carry padding such as `Block ` or `Docket Number `). */
export function normalizeHeaderName(name: string): string {
  return name.replace(/^\uFEFF/, '').trim();
}

export interface HeaderDiff {
  missing: string[];
  unexpected: string[];
}

/**
 * Compares a file's header with an expected one, by trimmed name and case-sensitively. Column order
 * does not matter (rows are read by name) but every expected column must be there and no other.
 */
export function diffHeader(expected: readonly string[], actual: readonly string[]): HeaderDiff {
  const want = new Set(expected.map(normalizeHeaderName));
  const have = new Set(actual.map(normalizeHeaderName));
  return {
    missing: [...want].filter((name) => !have.has(name)),
    unexpected: [...have].filter((name) => !want.has(name)),
  };
}

export function headersMatch(expected: readonly string[], actual: readonly string[]): boolean {
  const diff = diffHeader(expected, actual);
  return diff.missing.length === 0 && diff.unexpected.length === 0 && new Set(actual.map(normalizeHeaderName)).size === actual.length;
}

/** The file's header is not the one the source definition declares (nor one of its known variants). */
export class HeaderMismatchError extends Error {
  override readonly name = 'HeaderMismatchError';

  constructor(
    readonly source: string,
    readonly part: string,
    readonly missing: readonly string[],
    readonly unexpected: readonly string[],
  ) {
    super(
      `header of ${source} (${part}) does not match its definition: ` +
        `missing columns [${missing.join(', ')}]; unexpected columns [${unexpected.join(', ')}]`,
    );
  }
}
