import { ApiError } from '@bhis/envelope';
import type { ListPosition } from '@bhis/webhooks';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

/** An opaque cursor for lists ordered by (created_at, id), newest first. */
export function encodeListCursor(position: ListPosition): string {
  return Buffer.from(JSON.stringify({ t: position.createdAt, i: position.id })).toString('base64url');
}

/** Decodes a cursor from `encodeListCursor`; anything else is 400 invalid_request. */
export function decodeListCursor(cursor: string | undefined): ListPosition | null {
  if (cursor === undefined) return null;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { t?: unknown; i?: unknown };
    if (typeof parsed.t === 'string' && TIMESTAMP.test(parsed.t) && typeof parsed.i === 'string' && UUID.test(parsed.i)) {
      return { createdAt: parsed.t, id: parsed.i };
    }
  } catch {
    // fall through
  }
  throw new ApiError('invalid_request', 'The "cursor" parameter is not a valid cursor; use next_cursor from the previous page.');
}

const BBL = /^\d{10}$/;

/** An opaque cursor for a monitor's BBLs, in BBL order. */
export function encodeBblCursor(lastBbl: string): string {
  return Buffer.from(JSON.stringify({ b: lastBbl })).toString('base64url');
}

/** Decodes a cursor from `encodeBblCursor`; anything else is 400 invalid_request. */
export function decodeBblCursor(cursor: string | undefined): string | null {
  if (cursor === undefined) return null;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { b?: unknown };
    if (typeof parsed.b === 'string' && BBL.test(parsed.b)) return parsed.b;
  } catch {
    // fall through
  }
  throw new ApiError('invalid_request', 'The "cursor" parameter is not a valid cursor; use next_cursor from the previous page.');
}

/** Cuts a `limit + 1` result to one page and builds the pagination object. */
export function paginate<T>(rows: { item: T; position: ListPosition }[], limit: number) {
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  return {
    items: page.map((r) => r.item),
    pagination: { limit, has_more: hasMore, next_cursor: hasMore ? encodeListCursor(page[page.length - 1].position) : null },
  };
}
