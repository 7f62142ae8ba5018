import { ApiError } from '@bhis/envelope';
import { parseBbl, quoteInput } from '@bhis/domain';

export const MAX_BATCH_BBLS = 500;

export interface BatchRequest {
  /** Distinct entries in the order of their first occurrence. */
  entries: string[];
  /** The entries that are valid BBLs. */
  valid: string[];
  /** Entries in the body, repeats included. */
  received: number;
  /** Entries sent more than once, each once, in the order of their first occurrence. */
  duplicates: string[];
}

function invalid(message: string): ApiError {
  return new ApiError('invalid_request', message);
}

/**
 * Reads `{ "bbls": [...] }`: 1 to 500 strings. Entries that are strings but not valid BBLs are not an
 * error: they are reported with status `invalid`. Repeated entries are answered once, and named.
 */
export function parseBatchRequest(body: unknown): BatchRequest {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalid('The request body must be a JSON object of the form {"bbls": ["1000010001", ...]}.');
  }
  const extra = Object.keys(body).filter((key) => key !== 'bbls');
  if (extra.length > 0) {
    throw invalid(`Unknown body propert${extra.length > 1 ? 'ies' : 'y'} ${extra.map((k) => `"${quoteInput(k)}"`).join(', ')} (accepted: bbls).`);
  }
  const bbls = (body as { bbls?: unknown }).bbls;
  if (bbls === undefined) throw invalid('"bbls" is required: a list of 1 to 500 BBLs.');
  if (!Array.isArray(bbls)) throw invalid('"bbls" must be an array of BBL strings.');
  if (bbls.length > MAX_BATCH_BBLS) {
    throw new ApiError('too_many_bbls', `A batch accepts at most ${MAX_BATCH_BBLS} BBLs; received ${bbls.length}.`);
  }
  if (bbls.length === 0) throw invalid('"bbls" must contain at least one BBL.');
  const notString = bbls.findIndex((entry) => typeof entry !== 'string');
  if (notString >= 0) throw invalid(`"bbls[${notString}]" must be a string of 10 digits (got ${quoteInput(bbls[notString])}).`);
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const entry of bbls as string[]) (seen.has(entry) ? repeated : seen).add(entry);
  const entries = [...seen];
  return { entries, valid: entries.filter((entry) => parseBbl(entry).ok), received: bbls.length, duplicates: [...repeated] };
}
