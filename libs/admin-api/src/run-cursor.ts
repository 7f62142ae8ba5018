import { ApiError } from '@bhis/envelope';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The position of the last run of a page (queued_at, id) with the filters it was issued for. Readable,
 * not signed: only admin keys list runs and every part is checked before it reaches SQL.
 */
export function encodeRunCursor(run: { queued_at: Date; id: string }, filters: string): string {
  return Buffer.from(JSON.stringify([run.queued_at.toISOString(), run.id, filters])).toString('base64url');
}

export function decodeRunCursor(cursor: string, filters: string): { queuedAt: string; id: string } {
  const invalid = new ApiError('invalid_request', 'The "cursor" parameter is not a next_cursor of this list with these filters.');
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid;
  }
  if (!Array.isArray(parts) || parts.length !== 3) throw invalid;
  const [queuedAt, id, issuedFor] = parts as unknown[];
  if (typeof queuedAt !== 'string' || Number.isNaN(Date.parse(queuedAt)) || !/^\d{4}-\d{2}-\d{2}T/.test(queuedAt)) throw invalid;
  if (typeof id !== 'string' || !UUID.test(id) || issuedFor !== filters) throw invalid;
  return { queuedAt, id };
}
