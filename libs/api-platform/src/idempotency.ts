import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor, OnModuleDestroy, UseInterceptors } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Pool } from 'pg';
import type pino from 'pino';
import { RESPONSE_PASSTHROUGH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { Observable, of } from 'rxjs';
import type { ApiKeyKind } from '@bhis/domain';
import { ApiError } from '@bhis/envelope';
import { poolGetter } from '@bhis/db';
import type { DataSource } from 'typeorm';
import { platformState } from './request-context';
import { DATA_SOURCE, PINO_LOGGER } from './tokens';

/** How long an answer is kept and replayed. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;
/**
 * How long a request in flight holds its key: longer than any request runs (a CSV export's 5 min),
 * so only a request whose process died lets the key go before it is answered.
 */
export const IDEMPOTENCY_LOCK_SECONDS = 6 * 60;
/** The largest answer kept; a larger one is sent but not kept, and the key is given up. */
export const IDEMPOTENCY_MAX_STORED_BYTES = 8 * 1024 * 1024;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/**
 * The compressed bytes of answers one API key may have kept over 24 hours, by kind: a convention
 * sized so that a live key keeps hundreds of full batch or export answers (a 500-building batch is
 * about 0.2 MB compressed), while the public demo key cannot make Postgres store more than a few
 * megabytes a day for anyone holding it. Past it, a request with a new Idempotency-Key is refused
 * (429) until older answers age out; a request without the header is served as always.
 */
export const IDEMPOTENCY_QUOTA_BYTES: Readonly<Record<ApiKeyKind, number>> = { live: 512 * 1024 * 1024, demo: 8 * 1024 * 1024 };
/** Headers of an answer that are part of it (the platform's own, e.g. the request id, are made anew). */
const KEPT_HEADERS = ['content-type', 'content-disposition', 'location', 'cache-control'] as const;
const METHODS = new Set(['POST', 'PATCH']);
const PURGE_INTERVAL_MS = 3600_000;

/** Visible ASCII but `"` and `\` (they are escaped inside an sf-string). */
const BARE_KEY = /^[\x21\x23-\x5b\x5d-\x7e]+$/;
const SF_STRING = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/;

/**
 * The key of an `Idempotency-Key` header: an sf-string (RFC 8941, as draft-ietf-httpapi-idempotency-key-header-06
 * defines the field: `Idempotency-Key: "8e03978e-40d5-43e8-bc93-6894a57f9324"`) or, as most clients send it, the
 * bare value. Null when absent; 400 `invalid_idempotency_key` when malformed, empty, too long or sent twice.
 */
export function parseIdempotencyKey(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  const invalid = (why: string) =>
    new ApiError('invalid_idempotency_key', `The Idempotency-Key header ${why}; send one value of 1-${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters, e.g. a UUID.`);
  if (Array.isArray(header)) throw invalid('was sent more than once');
  const raw = header.trim();
  const quoted = SF_STRING.exec(raw);
  const key = quoted ? (quoted[1] ?? '').replace(/\\(["\\])/g, '$1') : raw;
  if (!quoted && !BARE_KEY.test(raw)) throw invalid(raw.includes(',') ? 'was sent more than once or holds a comma' : 'is not a valid string');
  if (key.length === 0) throw invalid('is empty');
  if (key.length > IDEMPOTENCY_KEY_MAX_LENGTH) throw invalid(`is longer than ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`);
  return key;
}

/** Whether the handler writes its answer itself (`@Res()` without passthrough), as Nest decides it. */
function writesOwnAnswer(context: ExecutionContext): boolean {
  const controller = context.getClass();
  const name = context.getHandler().name;
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<string, unknown>;
  const takesResponse = Object.keys(args).some((k) => {
    const type = Number(k.split(':')[0]);
    return type === Number(RouteParamtypes.RESPONSE) || type === Number(RouteParamtypes.NEXT);
  });
  return takesResponse && Reflect.getMetadata(RESPONSE_PASSTHROUGH_METADATA, controller, name) !== true;
}

/** JSON with object keys in sorted order, so that the same body spelled differently has one fingerprint. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.keys(value)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(',')}}`;
}

function fingerprint(body: unknown): Buffer {
  return createHash('sha256').update(body === undefined ? '' : canonicalJson(body)).digest();
}

interface StoredAnswer {
  request_hash: Buffer;
  status: number | null;
  response_headers: Record<string, string> | null;
  response_body: Buffer | null;
  body_gzip: boolean;
}

interface Claim {
  apiKeyId: string;
  method: string;
  path: string;
  key: string;
}

/**
 * `Idempotency-Key` on every POST and PATCH (draft-ietf-httpapi-idempotency-key-header-06): the first
 * request with a key claims (API key, method, path, Idempotency-Key) in Postgres with its body's
 * fingerprint; its answer (status, the answer's own headers, body) is stored before it is sent, so a
 * retry that follows it always finds it. For 24 hours the same body gets the same answer again with
 * `Idempotent-Replayed: true`; another body 422 `idempotency_key_reused`; a request while the first
 * is in flight 409 `idempotency_key_in_flight` (the primary key makes the claim atomic, so two
 * parallel requests run the handler once). An error answer gives the key up: the request changed
 * nothing and may be retried with it. Runs after the scope guard, so a refused key claims nothing;
 * a request without the header is not touched. The answer is captured at `res.end`, so handlers that
 * write their own response (`@Res()`) are covered as well as those that return a value.
 * Bound to each POST and PATCH handler (`@Idempotent()`), so a GET passes no interceptor (Nest binds
 * every interceptor of a request to its async context and runs it through rxjs).
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly pool: () => Pool;

  constructor(@Inject(DATA_SOURCE) dataSource: DataSource, @Inject(PINO_LOGGER) private readonly logger: pino.Logger) {
    this.pool = poolGetter(dataSource);
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> | Promise<Observable<unknown>> {
    const req = context.switchToHttp().getRequest<Request>();
    if (!METHODS.has(req.method) || req.headers['idempotency-key'] === undefined) return next.handle();
    return this.begin(req, context.switchToHttp().getResponse<Response>(), next, writesOwnAnswer(context));
  }

  private async begin(req: Request, res: Response, next: CallHandler, ownAnswer: boolean): Promise<Observable<unknown>> {
    const key = parseIdempotencyKey(req.headers['idempotency-key']);
    const { auth } = platformState(req);
    if (key === null || auth.state !== 'valid') return next.handle();
    const claim: Claim = { apiKeyId: auth.key.id, method: req.method, path: req.path, key };
    const hash = fingerprint(req.body);
    await this.checkQuota(claim, auth.key.kind);
    const { rowCount } = await this.pool().query(
      `INSERT INTO idempotency_keys (api_key_id, method, path, idempotency_key, request_hash, locked_until, expires_at)
       VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6), now() + make_interval(secs => $7))
       ON CONFLICT (api_key_id, method, path, idempotency_key) DO UPDATE
          SET request_hash = EXCLUDED.request_hash, status = NULL, response_headers = NULL, response_body = NULL,
              locked_until = EXCLUDED.locked_until, expires_at = EXCLUDED.expires_at, created_at = now()
        WHERE idempotency_keys.expires_at < now() OR (idempotency_keys.status IS NULL AND idempotency_keys.locked_until < now())`,
      [claim.apiKeyId, claim.method, claim.path, claim.key, hash, IDEMPOTENCY_LOCK_SECONDS, IDEMPOTENCY_TTL_SECONDS],
    );
    if ((rowCount ?? 0) === 0) return this.answerAgain(claim, hash, res, ownAnswer);
    this.captureAnswer(claim, res);
    return next.handle();
  }

  /**
   * 429 when the API key's answers kept over the last 24 hours reach its quota, unless this key was
   * claimed before (a replay or a 422 costs nothing to keep). At most 25 hourly rows are read.
   */
  private async checkQuota(claim: Claim, kind: ApiKeyKind): Promise<void> {
    const { rows } = await this.pool().query<{ bytes: string; known: boolean }>(
      `SELECT COALESCE((SELECT sum(bytes) FROM idempotency_usage WHERE api_key_id = $1 AND hour > now() - interval '25 hours'), 0) AS bytes,
              EXISTS (SELECT 1 FROM idempotency_keys WHERE api_key_id = $1 AND method = $2 AND path = $3 AND idempotency_key = $4 AND expires_at > now()) AS known`,
      [claim.apiKeyId, claim.method, claim.path, claim.key],
    );
    const used = Number(rows[0]?.bytes ?? 0);
    const quota = IDEMPOTENCY_QUOTA_BYTES[kind];
    if (used < quota || rows[0]?.known) return;
    throw new ApiError(
      'rate_limit_exceeded',
      `This key's idempotent answers kept over the last 24 hours reached ${Math.round(quota / 1024 / 1024)} MB (compressed); send the request without Idempotency-Key, or wait for older answers to age out.`,
      { headers: { 'Retry-After': '3600' } },
    );
  }

  /** The stored answer of an earlier request with the key, or why there is none to give. */
  private async answerAgain(claim: Claim, hash: Buffer, res: Response, ownAnswer: boolean): Promise<Observable<unknown>> {
    const { rows } = await this.pool().query<StoredAnswer>(
      `SELECT request_hash, status, response_headers, response_body, body_gzip FROM idempotency_keys
        WHERE api_key_id = $1 AND method = $2 AND path = $3 AND idempotency_key = $4`,
      [claim.apiKeyId, claim.method, claim.path, claim.key],
    );
    const stored = rows[0];
    if (stored && !stored.request_hash.equals(hash)) {
      throw new ApiError(
        'idempotency_key_reused',
        `The Idempotency-Key "${claim.key.slice(0, 64)}" was used for ${claim.method} ${claim.path} with a different body; use a new key for a new request.`,
      );
    }
    if (!stored || stored.status === null || stored.response_body === null) {
      throw new ApiError('idempotency_key_in_flight', `A request with the Idempotency-Key "${claim.key.slice(0, 64)}" is still being processed.`, {
        headers: { 'Retry-After': '1' },
      });
    }
    const body = stored.body_gzip ? gunzipSync(stored.response_body) : stored.response_body;
    const headers = stored.response_headers ?? {};
    res.statusCode = stored.status;
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.setHeader('Idempotent-Replayed', 'true');
    // a handler that answers with a value has it sent by Nest (the same JSON, so the same bytes); one
    // that writes its own answer is not called, and the bytes are written here
    if (!ownAnswer && (headers['content-type'] ?? '').startsWith('application/json')) return of(JSON.parse(body.toString('utf8')) as unknown);
    res.setHeader('Content-Length', body.length);
    res.end(body);
    return of(undefined);
  }

  /**
   * Holds the end of the answer until it is stored (or, for an error, until the key is given up);
   * chunks written before the end go out at once and are kept for the store.
   */
  private captureAnswer(claim: Claim, res: Response): void {
    const chunks: Buffer[] = [];
    let size = 0;
    const keep = (chunk: unknown, encoding?: unknown): void => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
      size += bytes.length;
      if (size <= IDEMPOTENCY_MAX_STORED_BYTES) chunks.push(bytes);
    };
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as Response['write'];
    res.end = ((...args: unknown[]) => {
      keep(args[0], args[1]);
      res.write = write as Response['write'];
      res.end = end as Response['end'];
      const finish = res.statusCode < 400 && size <= IDEMPOTENCY_MAX_STORED_BYTES ? this.store(claim, res, Buffer.concat(chunks)) : this.release(claim);
      void finish.then(() => end(...args));
      return res;
    }) as Response['end'];
  }

  private async store(claim: Claim, res: Response, body: Buffer): Promise<void> {
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = res.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    // kept compressed (JSON and CSV answers shrink 5-10 times), and counted against the key's quota
    const kept = gzipSync(body, { level: 1 });
    try {
      await this.pool().query(
        `WITH stored AS (
           UPDATE idempotency_keys SET status = $5, response_headers = $6, response_body = $7, body_gzip = true
            WHERE api_key_id = $1 AND method = $2 AND path = $3 AND idempotency_key = $4
            RETURNING api_key_id)
         INSERT INTO idempotency_usage (api_key_id, hour, bytes)
         SELECT api_key_id, date_trunc('hour', now()), $8 FROM stored
         ON CONFLICT (api_key_id, hour) DO UPDATE SET bytes = idempotency_usage.bytes + EXCLUDED.bytes`,
        [claim.apiKeyId, claim.method, claim.path, claim.key, res.statusCode, JSON.stringify(headers), kept, kept.length],
      );
    } catch (error) {
      // the answer is sent all the same; a retry waits for the lock to expire and then runs again
      this.logger.warn({ err: error }, 'the answer of an idempotent request was not stored');
    }
  }

  private async release(claim: Claim): Promise<void> {
    await this.pool()
      .query(`DELETE FROM idempotency_keys WHERE api_key_id = $1 AND method = $2 AND path = $3 AND idempotency_key = $4 AND status IS NULL`, [
        claim.apiKeyId,
        claim.method,
        claim.path,
        claim.key,
      ])
      .catch((error: unknown) => this.logger.warn({ err: error }, 'an idempotency key was not given up'));
  }
}

/** The idempotency of a POST or PATCH handler (`IdempotencyInterceptor`). */
export const Idempotent = (): MethodDecorator & ClassDecorator => UseInterceptors(IdempotencyInterceptor);

/** Deletes the expired idempotency keys and the usage hours no quota reads any more, every PURGE_INTERVAL_MS. */
@Injectable()
export class IdempotencyPurge implements OnModuleDestroy {
  private readonly pool: () => Pool;
  private readonly purge: NodeJS.Timeout;

  constructor(@Inject(DATA_SOURCE) dataSource: DataSource, @Inject(PINO_LOGGER) private readonly logger: pino.Logger) {
    this.pool = poolGetter(dataSource);
    this.purge = setInterval(() => void this.purgeExpired(), PURGE_INTERVAL_MS);
    this.purge.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.purge);
  }

  async purgeExpired(): Promise<number> {
    try {
      const { rowCount } = await this.pool().query(`DELETE FROM idempotency_keys WHERE expires_at < now()`);
      await this.pool().query(`DELETE FROM idempotency_usage WHERE hour < now() - interval '25 hours'`);
      return rowCount ?? 0;
    } catch (error) {
      this.logger.warn({ err: error }, 'expired idempotency keys not purged');
      return 0;
    }
  }
}
