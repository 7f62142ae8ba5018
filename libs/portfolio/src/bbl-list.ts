import { isValidBbl, quoteInput } from '@bhis/domain';
import { ApiError } from '@bhis/envelope';

/** BBLs per portfolio analysis, monitor or CSV export. */
export const PORTFOLIO_BBL_LIMIT = 10_000;

export interface BblList {
  /** Distinct entries as sent (valid and invalid), after collapsing duplicates. */
  requested: number;
  /** Distinct valid BBLs in request order. */
  valid: string[];
  /** Distinct invalid entries in request order. */
  invalid: unknown[];
}

/** Refuses a list longer than the limit with `too_many_bbls`, stating the limit and the count received. */
export function assertBblCount(count: number, limit = PORTFOLIO_BBL_LIMIT): void {
  if (count > limit) {
    throw new ApiError('too_many_bbls', `At most ${limit.toLocaleString('en-US')} BBLs are accepted per request; received ${count.toLocaleString('en-US')}.`, {
      details: { limit, count },
    });
  }
}

/** Splits a client's BBL list into distinct valid and invalid entries (duplicates collapsed). */
export function partitionBbls(entries: readonly unknown[]): BblList {
  assertBblCount(entries.length);
  const valid = new Set<string>();
  const invalid = new Map<string, unknown>();
  for (const entry of entries) {
    if (isValidBbl(entry)) valid.add(entry);
    else invalid.set(typeof entry === 'string' ? `s:${entry}` : `j:${JSON.stringify(entry)}`, entry);
  }
  return { requested: valid.size + invalid.size, valid: [...valid], invalid: [...invalid.values()] };
}

/** For endpoints that need every entry valid: 400 invalid_bbl naming the first few bad entries. */
export function requireAllValid(list: BblList): string[] {
  if (list.invalid.length > 0) {
    const shown = list.invalid.slice(0, 5).map((e) => `"${quoteInput(e)}"`).join(', ');
    const more = list.invalid.length > 5 ? ` and ${list.invalid.length - 5} more` : '';
    throw new ApiError('invalid_bbl', `Invalid BBL(s) in "bbls": ${shown}${more}. A BBL is 10 digits: borough 1-5, block (not 0), lot.`, {
      details: { invalid_count: list.invalid.length },
    });
  }
  return list.valid;
}
