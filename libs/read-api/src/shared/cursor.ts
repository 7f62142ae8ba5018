import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiError } from '@bhis/envelope';

/** The keyset position a cursor carries: the sort key values of the last row of the previous page. */
export type CursorPosition = readonly (string | number | null)[];

/** The type of each position member (`?`: may be null), checked before a value reaches SQL. */
export type CursorShape = readonly ('int' | 'string' | 'bbl' | 'digits' | 'date' | 'date?')[];

const SHAPE_PATTERNS = { bbl: /^\d{10}$/, digits: /^\d{1,18}$/, date: /^\d{4}-\d{2}-\d{2}$/, string: /^[^\0]{0,500}$/ } as const;

function fitsShape(position: readonly unknown[], shape: CursorShape): boolean {
  return (
    position.length === shape.length &&
    position.every((part, i) => {
      const kind = shape[i];
      if (kind === 'int') return typeof part === 'number' && Number.isSafeInteger(part);
      if (part === null) return kind === 'date?';
      return typeof part === 'string' && SHAPE_PATTERNS[kind === 'date?' ? 'date' : kind].test(part);
    })
  );
}

interface CursorPayload {
  /** Fingerprint of the filters the cursor was issued for. */
  f: string;
  /** The keyset position. */
  k: CursorPosition;
}

const SIGNATURE_BYTES = 16;

/**
 * Opaque, tamper-evident pagination cursors: `base64url(JSON {f, k}) + "." + base64url(HMAC-SHA256)`.
 * The HMAC covers the endpoint name, the holder (the id of the API key the page was served to) and the
 * payload, so a cursor cannot be edited, moved to another endpoint or replayed by another key; the
 * payload names the filters it was issued for, so reusing it with other filters is refused.
 * Cursors do not expire: a keyset position stays meaningful while the data does not change.
 */
export class CursorCodec {
  constructor(private readonly key: Buffer) {}

  /**
   * The signing key: derived from CURSOR_SECRET, the same on every instance of a deployment so a cursor
   * issued by one instance is accepted by all of them. Without it, a random key of this process: cursors
   * then work only on the instance that issued them and only until it restarts.
   */
  static fromSecret(cursorSecret: string | undefined): CursorCodec {
    if (!cursorSecret) return new CursorCodec(randomBytes(32));
    return new CursorCodec(createHash('sha256').update(`bhis-cursor-v1\nsecret:${cursorSecret}`).digest());
  }

  encode(endpoint: string, holder: string, filters: string, position: CursorPosition): string {
    const payload = Buffer.from(JSON.stringify({ f: fingerprint(filters), k: position } satisfies CursorPayload)).toString('base64url');
    return `${payload}.${this.sign(endpoint, holder, payload).toString('base64url')}`;
  }

  /** The position of a cursor, or 400 invalid_request naming the problem. */
  decode(endpoint: string, holder: string, filters: string, cursor: string, shape: CursorShape): CursorPosition {
    const invalid = () => new ApiError('invalid_request', 'The "cursor" parameter is not a valid cursor for this endpoint.');
    const dot = cursor.indexOf('.');
    if (dot <= 0 || cursor.length > 2048) throw invalid();
    const payload = cursor.slice(0, dot);
    const signature = Buffer.from(cursor.slice(dot + 1), 'base64url');
    const expected = this.sign(endpoint, holder, payload);
    if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) throw invalid();
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw invalid();
    }
    if (!isPayload(parsed) || !fitsShape(parsed.k, shape)) throw invalid();
    if (parsed.f !== fingerprint(filters)) {
      throw new ApiError('invalid_request', 'The "cursor" parameter was issued for other filters or sort: repeat the query that returned it.');
    }
    return parsed.k;
  }

  private sign(endpoint: string, holder: string, payload: string): Buffer {
    return createHmac('sha256', this.key).update(`${endpoint}\n${holder}\n${payload}`).digest().subarray(0, SIGNATURE_BYTES);
  }
}

function fingerprint(filters: string): string {
  return createHash('sha256').update(filters).digest('base64url').slice(0, 16);
}

function isPayload(value: unknown): value is CursorPayload {
  if (!value || typeof value !== 'object') return false;
  const { f, k } = value as { f?: unknown; k?: unknown };
  return typeof f === 'string' && Array.isArray(k);
}
