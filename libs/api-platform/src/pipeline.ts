import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import compression from 'compression';
import { ApiError, newRequestId } from '@bhis/envelope';
import type { ApiKeyStore } from './api-key-store';
import { sendError, toApiError } from './errors';
import type { RateLimiter } from './rate-limiter';
import { writeRateLimitHeaders } from './rate-limit-headers';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from './json-depth';
import { isLargeBodyPath, requestCost } from './request-cost';
import { PlatformRequest, PlatformRequestState } from './request-context';

export interface PipelineLimits {
  live: number;
  demo: number;
  anonymous: number;
}

export interface PipelineDeps {
  keys: ApiKeyStore;
  limiter: RateLimiter;
  limits: PipelineLimits;
  /** Middleware that runs right after the request id is assigned (logging, metrics). */
  before?: RequestHandler[];
}

const HSTS = 'max-age=63072000; includeSubDomains';

/** Gives every request its id, timer and security headers. */
function requestContext(req: Request, res: Response, next: NextFunction): void {
  const state: PlatformRequestState = {
    requestId: newRequestId(),
    startedAt: process.hrtime.bigint(),
    auth: { state: 'none' },
    rateLimit: null,
    cost: 1,
    bodyError: null,
  };
  (req as PlatformRequest).platform = state;
  res.setHeader('X-Request-Id', state.requestId);
  res.setHeader('Strict-Transport-Security', HSTS);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  next();
}

const BODY_ERRORS: Record<string, (err: { limit?: number }) => ApiError> = {
  'entity.parse.failed': () => new ApiError('invalid_request', 'The request body is not valid JSON.'),
  'entity.too.large': (err) =>
    new ApiError('payload_too_large', `The request body is larger than the limit of ${formatBytes(err.limit ?? 0)}.`),
  'encoding.unsupported': () => new ApiError('invalid_request', 'The request body uses an unsupported Content-Encoding.'),
  'charset.unsupported': () => new ApiError('invalid_request', 'The request body must be UTF-8 encoded JSON.'),
  'request.aborted': () => new ApiError('invalid_request', 'The request body was not received completely.'),
};

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

/**
 * Parses JSON bodies (1 MiB, or 10 MiB for portfolio and export) and requires application/json on
 * requests that carry a body. Problems are recorded and raised after authentication and rate limiting,
 * so even a malformed request gets the rate-limit headers.
 */
function bodyParsing(): RequestHandler {
  const small = express.json({ limit: '1mb', strict: true, type: () => true });
  const large = express.json({ limit: '10mb', strict: true, type: () => true });
  return (req, res, next) => {
    const state = (req as PlatformRequest).platform;
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    if (!hasBody || req.method === 'GET' || req.method === 'HEAD') return next();
    if (!req.is('application/json')) {
      state.bodyError = new ApiError('invalid_request', 'The request body must be JSON with Content-Type: application/json.');
      return next();
    }
    const parser = isLargeBodyPath(req.path) ? large : small;
    parser(req, res, (err?: unknown) => {
      if (err) {
        const type = (err as { type?: string }).type ?? '';
        state.bodyError = (BODY_ERRORS[type] ?? BODY_ERRORS['entity.parse.failed'])(err as { limit?: number });
        // the rest of an oversized body is not read: close the connection after answering
        if (type === 'entity.too.large') res.setHeader('Connection', 'close');
      } else if (jsonDepthExceeds(req.body, MAX_JSON_DEPTH)) {
        state.bodyError = new ApiError('invalid_request', `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`);
        req.body = undefined;
      }
      next();
    });
  };
}

function presentedKey(req: Request): string | null | { malformed: string } {
  const authorization = req.get('authorization');
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) return { malformed: 'The Authorization header must have the form "Bearer <API_KEY>".' };
    return match[1];
  }
  const header = req.get('x-api-key');
  if (header !== undefined) return header.trim() === '' ? null : header.trim();
  return null;
}

const REASONS: Record<string, string> = {
  malformed: 'The API key is not a valid key.',
  unknown: 'The API key is not valid.',
  expired: 'The API key has expired.',
  revoked: 'The API key has been revoked.',
};

/** Authenticates the key (if any) and charges the request to the key's (or the client's) rate limit. */
function authenticateAndLimit(deps: PipelineDeps): RequestHandler {
  return async (req, res, next) => {
    if (!req.path.startsWith('/api/')) return next();
    const state = (req as PlatformRequest).platform;
    try {
      const presented = presentedKey(req);
      if (presented && typeof presented === 'object') {
        state.auth = { state: 'invalid', reason: presented.malformed };
      } else if (typeof presented === 'string') {
        const check = await deps.keys.check(presented);
        state.auth = check.ok ? { state: 'valid', key: check.key } : { state: 'invalid', reason: REASONS[check.reason] };
      }

      state.cost = state.bodyError ? 1 : requestCost(req.method, req.path, req.body);
      const [identity, limit] =
        state.auth.state === 'valid'
          ? [`key:${state.auth.key.id}`, state.auth.key.rateLimitPerMin ?? deps.limits[state.auth.key.kind]]
          : [`ip:${req.ip ?? 'unknown'}`, deps.limits.anonymous];
      const decision = await deps.limiter.consume(identity, limit, state.cost);
      state.rateLimit = decision.status;
      res.setHeader('X-RateLimit-Cost', String(state.cost));
      writeRateLimitHeaders(res, decision.status);
      if (!decision.allowed) {
        throw new ApiError(
          'rate_limit_exceeded',
          `Rate limit of ${limit} units per minute exceeded (this request costs ${state.cost}). Retry in ${decision.retryAfterSeconds} s.`,
          { headers: { 'Retry-After': String(decision.retryAfterSeconds) } },
        );
      }
      if (state.bodyError) throw state.bodyError;
      next();
    } catch (error) {
      sendError(req, res, toApiError(error));
    }
  };
}

/** Installs the request pipeline on an Express app, ahead of the Nest router. */
export function installPipeline(app: express.Express, deps: PipelineDeps): void {
  app.use(requestContext);
  for (const handler of deps.before ?? []) app.use(handler);
  app.use(compression({ threshold: 1024 }));
  app.use(bodyParsing());
  app.use(authenticateAndLimit(deps));
}
