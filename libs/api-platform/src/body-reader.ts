import type { Request } from 'express';
import { createGunzip } from 'node:zlib';
import { ApiError } from '@bhis/envelope';
import { MAX_JSON_DEPTH } from './json-depth';

/**
 * After a refused body the rest of it is read and thrown away, so the client can read the answer
 * instead of seeing its connection reset; beyond this many bytes or this long the connection is cut.
 */
const DRAIN_MAX_BYTES = 16 * 1024 * 1024;
const DRAIN_MAX_MS = 30_000;

/** Content-Encodings a request body may use: none, or gzip (a brotli or deflate body is refused, 415). */
const ACCEPTED_ENCODINGS = new Set(['identity', 'gzip']);

export type BodyOutcome = { ok: true; body: unknown } | { ok: false; error: ApiError };

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
export function drainRequest(req: Request): Promise<void> {
  if (req.readableEnded || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let discarded = 0;
    const cut = () => {
      req.socket.destroy();
      resolve();
    };
    const timer = setTimeout(cut, DRAIN_MAX_MS);
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

/**
 * Reads a JSON request body with every limit applied while it streams in: the Content-Encoding must be
 * none or gzip (415), the decompressed size at most `maxBytes` (413) and the nesting at most 64 levels
 * (400), each checked on every chunk, so an oversized or deeply nested body is refused as soon as it
 * passes the limit and is never parsed. The charset must be UTF-8.
 */
export function readJsonBody(req: Request, maxBytes: number): Promise<BodyOutcome> {
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (!ACCEPTED_ENCODINGS.has(encoding)) {
    return refuse(req, new ApiError('unsupported_media_type', 'The request body must be sent uncompressed or with Content-Encoding: gzip.'));
  }
  const tooLarge = new ApiError('payload_too_large', `The request body is larger than the limit of ${formatBytes(maxBytes)}.`);
  if (encoding === 'identity' && Number(req.headers['content-length'] ?? 0) > maxBytes) return refuse(req, tooLarge);

  return new Promise((resolve) => {
    const source: NodeJS.ReadableStream = encoding === 'gzip' ? req.pipe(createGunzip()) : req;
    const gunzip = source === req ? null : (source as ReturnType<typeof createGunzip>);
    const chunks: Buffer[] = [];
    const depth = new DepthScanner();
    let size = 0;
    let settled = false;
    const finish = (outcome: BodyOutcome) => {
      if (settled) return;
      settled = true;
      source.removeAllListeners('data');
      if (gunzip) {
        req.unpipe(gunzip);
        gunzip.destroy();
      }
      if (outcome.ok) resolve(outcome);
      else void drainRequest(req).then(() => resolve(outcome));
    };
    source.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) return finish({ ok: false, error: tooLarge });
      depth.push(chunk);
      if (depth.maxSeen > MAX_JSON_DEPTH) {
        return finish({ ok: false, error: new ApiError('invalid_request', `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`) });
      }
      chunks.push(chunk);
    });
    source.on('error', () =>
      finish({ ok: false, error: new ApiError('invalid_request', gunzip ? 'The request body is not valid gzip data.' : 'The request body was not received completely.') }),
    );
    req.on('error', () => finish({ ok: false, error: new ApiError('invalid_request', 'The request body was not received completely.') }));
    req.on('aborted', () => finish({ ok: false, error: new ApiError('invalid_request', 'The request body was not received completely.') }));
    source.on('end', () => {
      try {
        const decoded = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks)).trimStart();
        // only an object or an array is a request body (as body-parser's strict mode)
        if (!decoded.startsWith('{') && !decoded.startsWith('[')) throw new SyntaxError('not an object or array');
        finish({ ok: true, body: JSON.parse(decoded) as unknown });
      } catch {
        finish({ ok: false, error: new ApiError('invalid_request', 'The request body is not valid JSON.') });
      }
    });
  });
}

async function refuse(req: Request, error: ApiError): Promise<BodyOutcome> {
  await drainRequest(req);
  return { ok: false, error };
}
