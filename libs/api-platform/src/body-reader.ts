import type { Request } from 'express';
import { createGunzip } from 'node:zlib';
import { ApiError } from '@bhis/envelope';
import { MAX_JSON_DEPTH } from './json-depth';

/**
 * After a refused body the rest of it is read and thrown away, so the client can read the answer
 * instead of seeing its connection reset; beyond this many bytes or this long (or the request's own
 * deadline, if sooner) the connection is cut.
 */
const DRAIN_MAX_BYTES = 16 * 1024 * 1024;
const DRAIN_MAX_MS = 30_000;

/** Content-Encodings a request body may use: none, or gzip (a brotli or deflate body is refused, 415). */
const ACCEPTED_ENCODINGS = new Set(['identity', 'gzip']);

/** `closeConnection`: the client stopped sending, so the connection is closed after the answer. */
export type BodyOutcome = { ok: true; body: unknown; bytes: number } | { ok: false; error: ApiError; closeConnection?: boolean };

export interface BodyLimits {
  /** The largest body accepted, counted after decompression. */
  maxBytes: number;
  /** The body must be in within this time (the rest of the request's deadline): else 408. */
  timeoutMs: number;
  /** Told of every chunk read for parsing (after decompression): the bytes inflated so far. */
  onBytes?: (chunkBytes: number, totalBytes: number) => void;
  /**
   * Called once a chunk is in; a promise pauses reading until it settles (a charge the rate limiter
   * must decide), and a rejection ends the read with its error.
   */
  charge?: (totalBytes: number) => Promise<void> | void;
}

export function hasBody(req: Request): boolean {
  if (req.method === 'GET' || req.method === 'HEAD') return false;
  return Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

/** Tracks the nesting depth of JSON text chunk by chunk (brackets outside strings), without parsing it. */
class DepthScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  maxSeen = 0;

  push(chunk: Buffer): void {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 0x5c) this.escaped = true;
        else if (c === 0x22) this.inString = false;
      } else if (c === 0x22) this.inString = true;
      else if (c === 0x5b || c === 0x7b) {
        this.depth++;
        if (this.depth > this.maxSeen) this.maxSeen = this.depth;
      } else if (c === 0x5d || c === 0x7d) this.depth--;
    }
  }
}

/**
 * Reads and discards what is left of a body that will not be used, within bounds (past them the
 * connection is cut). Settles once the body is read: answering only then means the client has
 * finished sending and reads the answer, instead of having its connection reset mid-upload (which
 * is what a server closing a `Connection: close` request with unread data causes).
 */
export function drainRequest(req: Request, timeoutMs = DRAIN_MAX_MS): Promise<void> {
  if (req.readableEnded || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let discarded = 0;
    const cut = () => {
      req.socket.destroy();
      resolve();
    };
    const timer = setTimeout(cut, Math.max(0, Math.min(timeoutMs, DRAIN_MAX_MS)));
    timer.unref();
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    req.on('data', (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > DRAIN_MAX_BYTES) cut();
    });
    req.once('end', done);
    req.once('close', done);
    req.resume();
  });
}

/** The answer to a body that did not arrive in time. */
export function bodyTimeout(seconds: number): ApiError {
  return new ApiError('request_timeout', `The request body was not received within ${seconds} s of the request.`, { headers: { Connection: 'close' } });
}

/**
 * Reads a JSON request body with every limit applied while it streams in: the Content-Encoding must be
 * none or gzip (415), the decompressed size at most `maxBytes` (413) and the nesting at most 64 levels
 * (400), each checked on every chunk as it is inflated, so an oversized or deeply nested body (a gzip
 * bomb) is refused as soon as it passes the limit and is never inflated further nor parsed. The body
 * must be in within `timeoutMs` (408, and the connection is closed: its client stopped sending); a
 * client that hangs up ends the read at once. The charset must be UTF-8.
 */
export function readJsonBody(req: Request, limits: BodyLimits): Promise<BodyOutcome> {
  const { maxBytes } = limits;
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (!ACCEPTED_ENCODINGS.has(encoding)) {
    return refuse(req, new ApiError('unsupported_media_type', 'The request body must be sent uncompressed or with Content-Encoding: gzip.'), limits.timeoutMs);
  }
  const tooLarge = new ApiError('payload_too_large', `The request body is larger than the limit of ${formatBytes(maxBytes)}.`);
  if (encoding === 'identity' && Number(req.headers['content-length'] ?? 0) > maxBytes) return refuse(req, tooLarge, limits.timeoutMs);

  return new Promise((resolve) => {
    const gunzip = encoding === 'gzip' ? createGunzip() : null;
    const source: NodeJS.ReadableStream = gunzip ? req.pipe(gunzip) : req;
    const chunks: Buffer[] = [];
    const depth = new DepthScanner();
    let size = 0;
    let settled = false;
    let pending = 0;
    let ended = false;
    const incomplete = (): BodyOutcome => ({ ok: false, error: new ApiError('invalid_request', 'The request body was not received completely.'), closeConnection: true });
    const timer = setTimeout(() => finish({ ok: false, error: bodyTimeout(Math.round(limits.timeoutMs / 1000)), closeConnection: true }), Math.max(0, limits.timeoutMs));
    timer.unref();
    const finish = (outcome: BodyOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      chunks.length = 0;
      source.removeAllListeners('data');
      if (gunzip) {
        req.unpipe(gunzip);
        gunzip.destroy();
      }
      if (outcome.ok || outcome.closeConnection) resolve(outcome);
      else void drainRequest(req, limits.timeoutMs).then(() => resolve(outcome));
    };
    const parse = () => finish(parseJson(chunks, size));
    source.on('data', (chunk: Buffer) => {
      size += chunk.length;
      limits.onBytes?.(chunk.length, size);
      if (size > maxBytes) return finish({ ok: false, error: tooLarge });
      depth.push(chunk);
      if (depth.maxSeen > MAX_JSON_DEPTH) {
        return finish({ ok: false, error: new ApiError('invalid_request', `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`) });
      }
      chunks.push(chunk);
      const charged = limits.charge?.(size);
      if (charged instanceof Promise) {
        // reading waits for the rate limiter: nothing more is inflated until the units are paid
        pending += 1;
        source.pause();
        charged.then(
          () => {
            pending -= 1;
            if (settled) return;
            if (pending === 0) source.resume();
            if (ended && pending === 0) parse();
          },
          (error: unknown) => finish({ ok: false, error: error instanceof ApiError ? error : new ApiError('internal_error', 'The request could not be charged.') }),
        );
      }
    });
    source.on('error', () => {
      finish({ ok: false, error: new ApiError('invalid_request', gunzip ? 'The request body is not valid gzip data.' : 'The request body was not received completely.') });
    });
    req.on('error', () => finish(incomplete()));
    // a client that hangs up mid-body: the read ends (and its memory is let go) at once
    req.on('aborted', () => finish(incomplete()));
    req.on('close', () => {
      if (!req.complete) finish(incomplete());
    });
    source.on('end', () => {
      ended = true;
      if (pending === 0) parse();
    });
  });
}

function parseJson(chunks: Buffer[], bytes: number): BodyOutcome {
  try {
    const decoded = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks)).trimStart();
    // only an object or an array is a request body (as body-parser's strict mode)
    if (!decoded.startsWith('{') && !decoded.startsWith('[')) throw new SyntaxError('not an object or array');
    return { ok: true, body: JSON.parse(decoded) as unknown, bytes };
  } catch {
    return { ok: false, error: new ApiError('invalid_request', 'The request body is not valid JSON.') };
  }
}

async function refuse(req: Request, error: ApiError, timeoutMs: number): Promise<BodyOutcome> {
  await drainRequest(req, timeoutMs);
  return { ok: false, error };
}
