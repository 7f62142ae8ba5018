import { ApiError } from '@bhis/envelope';
import { parseBbl, quoteInput } from '@bhis/domain';

/** The BBL of a path, or 400 invalid_bbl quoting the input (trimmed to 40 characters). */
export function parsePathBbl(raw: string): string {
  const parsed = parseBbl(raw);
  if (!parsed.ok) throw new ApiError('invalid_bbl', `Invalid BBL "${quoteInput(raw)}": ${parsed.reason}.`);
  return parsed.value.bbl;
}
