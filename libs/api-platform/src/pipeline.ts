import type { Request, RequestHandler } from 'express';
import compression from 'compression';
import { ApiError, newRequestId } from '@bhis/envelope';
import type { ApiKeyStore } from './api-key-store';
import type { KeyedRoutes } from './keyed-routes';
import { authError } from './scope.guard';
import { drainRequest, hasBody, readJsonBody } from './body-reader';
import { sendError, toApiError } from './errors';
import { PlatformRequest, PlatformRequestState, ResponseFinished } from './request-context';
import type { RequestCharges } from './request-charges';
import type { RouteShortcuts } from './route-shortcuts';
import { maxBodyBytes, requestCost, routeCostOf } from './route-costs';

export interface PipelineDeps {
  keys: ApiKeyStore;
  charges: RequestCharges;
  /** Routes that need a key: a request without a valid key for one is answered 401 here, not behind the router. */
  keyedRoutes?: KeyedRoutes;
  /** GET answers given from memory right after the key check, ahead of the router. */
  shortcuts?: RouteShortcuts;
  /** What runs once each response is sent (access log, metrics), from a single listener. */
  onFinish?: ResponseFinished[];
}

const HSTS = 'max-age=63072000; includeSubDomains';

/** Gives every request its id, timer and security headers, and calls `onFinish` once it is answered. */
function requestContext(onFinish: readonly ResponseFinished[]): RequestHandler {
  return (req, res, next) => {
    const state: PlatformRequestState = {
      requestId: newRequestId(),
      startedAt: process.hrtime.bigint(),
      auth: { state: 'none' },
      rateLimit: null,
      cost: 0,
    };
    (req as PlatformRequest).platform = state;
    res.setHeader('X-Request-Id', state.requestId);
    res.setHeader('Strict-Transport-Security', HSTS);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    if (onFinish.length > 0) res.once('finish', () => onFinish.forEach((finished) => finished(req, res)));
    next();
  };
}

/** The key of a request: a Bearer token, X-API-Key, or the password of HTTP Basic auth (what a browser can send). */
function presentedKey(req: Request): string | null | { malformed: string } {
  const authorization = req.get('authorization');
  if (authorization !== undefined) {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (bearer) return bearer[1];
    const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
    if (basic) {
      const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
      return decoded.slice(decoded.indexOf(':') + 1) || null;
    }
    return { malformed: 'The Authorization header must have the form "Bearer <API_KEY>".' };
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

/** Past the address's allowance of invalid keys, a key that would need a database lookup is refused (429). */
async function refuseAfterAuthFailures(deps: PipelineDeps, req: Request): Promise<void> {
  const blocked = await deps.charges.authFailuresExhausted(req);
  if (blocked) {
    throw new ApiError('rate_limit_exceeded', `Too many requests with an invalid API key from this address. Retry in ${blocked.retryAfterSeconds} s.`, {
      headers: { 'Retry-After': String(blocked.retryAfterSeconds) },
    });
  }
}

/**
 * Authenticates the key (if any) and charges the request's minimum cost, before a byte of the body is
 * read. A client address that sent too many invalid keys gets 429 instead of a key lookup; keys known
 * from memory (valid or unknown) and malformed ones cost no lookup and are answered as usual. A GET
 * that a registered shortcut can answer (route-shortcuts.ts) is answered here, before the router.
 */
function authenticateAndLimit(deps: PipelineDeps): RequestHandler {
  return async (req, res, next) => {
    const state = (req as PlatformRequest).platform;
    try {
      const presented = presentedKey(req);
      if (presented && typeof presented === 'object') {
        state.auth = { state: 'invalid', reason: presented.malformed };
      } else if (typeof presented === 'string') {
        const check = await deps.keys.check(presented, () => refuseAfterAuthFailures(deps, req));
        state.auth = check.ok ? { state: 'valid', key: check.key } : { state: 'invalid', reason: REASONS[check.reason] };
      }
      if (state.auth.state === 'invalid') await deps.charges.recordAuthFailure(req).catch(() => undefined);
      await deps.charges.charge(req, res, routeCostOf(req.method, req.path)?.minimum ?? 1);
      if (state.auth.state !== 'valid') {
        const route = deps.keyedRoutes?.routeNeedingKey(req.method, req.path);
        if (route) {
          state.route = route;
          throw authError(state.auth);
        }
      }
      if (deps.shortcuts?.tryAnswer(req, res)) return;
      next();
    } catch (error) {
      if (hasBody(req)) await drainRequest(req);
      sendError(req, res, toApiError(error));
    }
  };
}

/**
 * Reads the JSON body of an authenticated request within its route's limits, then charges what the
 * body adds to the cost. Without a valid key the body is never read (the route answers 401 or 404);
 * a body without `Content-Type: application/json` is refused.
 */
function bodyParsing(deps: PipelineDeps): RequestHandler {
  return async (req, res, next) => {
    if (!hasBody(req)) return next();
    const state = (req as PlatformRequest).platform;
    if (state.auth.state !== 'valid') {
      await drainRequest(req);
      return next();
    }
    try {
      if (!req.is('application/json')) {
        await drainRequest(req);
        throw new ApiError('invalid_request', 'The request body must be JSON with Content-Type: application/json.');
      }
      const charset = (req.get('content-type') ?? '').match(/charset\s*=\s*"?([^";\s]+)/i)?.[1]?.toLowerCase();
      if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
        await drainRequest(req);
        throw new ApiError('invalid_request', 'The request body must be UTF-8 encoded JSON.');
      }
      const route = routeCostOf(req.method, req.path);
      const outcome = await readJsonBody(req, maxBodyBytes(route));
      if (!outcome.ok) throw outcome.error;
      req.body = outcome.body;
      await deps.charges.charge(req, res, requestCost(route, outcome.body) - (route?.minimum ?? 1));
      next();
    } catch (error) {
      sendError(req, res, toApiError(error));
    }
  };
}

/**
 * Compresses responses of clients that accept a content encoding. Without an `Accept-Encoding`
 * header nothing would be compressed, so the response is not wrapped at all.
 */
function compressionWhenAccepted(): RequestHandler {
  const compress = compression({ threshold: 1024 });
  return (req, res, next) => (req.headers['accept-encoding'] ? compress(req, res, next) : next());
}

/** Installs the request pipeline on an Express app, ahead of the Nest router. */
export function installPipeline(app: { use: (handler: RequestHandler) => unknown }, deps: PipelineDeps): void {
  app.use(requestContext(deps.onFinish ?? []));
  app.use(compressionWhenAccepted());
  app.use(authenticateAndLimit(deps));
  app.use(bodyParsing(deps));
}
