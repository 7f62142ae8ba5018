import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import compression from 'compression';
import { ApiError, newRequestId } from '@bhis/envelope';
import type { ApiKeyStore, KeyCheck } from './api-key-store';
import type { KeyedRoutes } from './keyed-routes';
import { authError, scopeError } from './scope.guard';
import { drainRequest, hasBody, readJsonBody } from './body-reader';
import { sendError, toApiError } from './errors';
import { AuthState, PlatformRequest, PlatformRequestState, ResponseFinished } from './request-context';
import type { RequestCharges } from './request-charges';
import type { RouteShortcuts } from './route-shortcuts';
import { maxBodyBytes, requestCost, routeCostOf } from './route-costs';
import { noteResponse, REQUEST_TIMEOUT_MS } from './http-server-limits';
import { applyPlatformHeaders } from './response-head';
import { CorsPolicy, corsStep } from './cors';
import { acceptedRequestId, parseTraceParent } from './trace-context';
import { refusedTransferCoding } from './transfer-coding';

export interface PipelineDeps {
  keys: ApiKeyStore;
  charges: RequestCharges;
  /**
   * Routes that need a key: a request without a valid key for one is answered 401 here, not behind
   * the router; a body is read only for a route that takes one, once its scope is checked.
   */
  keyedRoutes?: KeyedRoutes;
  /** Told of the bytes of every body chunk read for parsing, after decompression (a metric). */
  onBodyBytes?: (chunkBytes: number) => void;
  /** GET answers given from memory right after the key check, ahead of the router. */
  shortcuts?: RouteShortcuts;
  /** What runs once each response is sent (access log, metrics), from a single listener. */
  onFinish?: ResponseFinished[];
  /** PUBLIC_BASE_URL: the base of the error envelopes' absolute `doc_url`. */
  publicBaseUrl?: string;
  /** Browser origins allowed to call the API (`CORS_ORIGINS`); without it no CORS step runs. */
  cors?: CorsPolicy;
}

/**
 * Gives every request its id (the client's `X-Request-Id` when it is an acceptable one, else a new
 * one), its timer and the client's trace context. Its headers (request id, security headers) are
 * written with the answer, or set when the request goes on to the router (`handOn`).
 */
function requestContext(onFinish: readonly ResponseFinished[], publicBaseUrl: string | undefined): RequestHandler {
  return (req, _res, next) => {
    const headers = req.headers;
    const state: PlatformRequestState = {
      requestId: acceptedRequestId(headers['x-request-id']) ?? newRequestId(),
      startedAt: process.hrtime.bigint(),
      auth: { state: 'none' },
      rateLimit: null,
      cost: 0,
      // every field from the start: a field added later would change the object's shape
      route: undefined,
      handedOn: false,
      onFinish,
      publicBaseUrl,
      cors: null,
      trace: headers.traceparent === undefined ? null : parseTraceParent(headers.traceparent),
    };
    (req as PlatformRequest).platform = state;
    next();
  };
}

/** The one `finish` listener of every response that goes on to the router (no closure per request; Node sets `res.req`). */
function finished(this: Response): void {
  for (const done of (this.req as PlatformRequest).platform.onFinish) done(this.req, this);
}

/** Hands a request on to the Express app, with the platform's headers set on its response. */
function handOn(app: Express, req: Request, res: Response): void {
  const state = (req as PlatformRequest).platform;
  state.handedOn = true;
  applyPlatformHeaders(res, state);
  if (state.onFinish.length > 0) res.on('finish', finished);
  (app as unknown as (req: IncomingMessage, res: ServerResponse) => void)(req, res);
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

/**
 * Past the address's allowance of invalid keys, a key that would need a database lookup is refused
 * (429), unless its lookup prefix is one of a stored key: a valid key is always looked up and passes.
 */
async function refuseAfterAuthFailures(deps: PipelineDeps, req: Request, sharesStoredPrefix: () => Promise<boolean>): Promise<void> {
  const blocked = await deps.charges.authFailuresExhausted(req);
  if (blocked && !(await sharesStoredPrefix())) {
    throw new ApiError('rate_limit_exceeded', `Too many requests with an invalid API key from this address. Retry in ${blocked.retryAfterSeconds} s.`, {
      headers: { 'Retry-After': String(blocked.retryAfterSeconds) },
    });
  }
}

type PresentedKey = ReturnType<typeof presentedKey>;

function authState(check: KeyCheck): AuthState {
  return check.ok ? { state: 'valid', key: check.key } : { state: 'invalid', reason: REASONS[check.reason] };
}

/** What the key of a request is, when no lookup is needed (no key, a malformed key, a key known from memory). */
function authFromMemory(deps: PipelineDeps, presented: PresentedKey): AuthState | undefined {
  if (presented === null) return { state: 'none' };
  if (typeof presented === 'object') return { state: 'invalid', reason: presented.malformed };
  const check = deps.keys.checkFromMemory(presented);
  return check && authState(check);
}

async function authenticate(deps: PipelineDeps, req: Request, presented: string): Promise<AuthState> {
  return authState(await deps.keys.check(presented, (sharesStoredPrefix) => refuseAfterAuthFailures(deps, req, sharesStoredPrefix)));
}

/**
 * After the key check and the charge: 401 for a keyed route without a valid key, a shortcut's answer,
 * or on. Refusals are answered, not thrown: V8 records where every throw happened, a cost each 401
 * would pay.
 */
function admit(deps: PipelineDeps, req: Request, res: Response, next: NextFunction): Promise<void> | void {
  const state = (req as PlatformRequest).platform;
  if (state.auth.state !== 'valid') {
    const route = deps.keyedRoutes?.routeNeedingKey(req.method, req.path);
    if (route) {
      state.route = route;
      return refuse(req, res, authError(state.auth));
    }
  }
  if (deps.shortcuts?.tryAnswer(req, res)) return;
  next();
}

/** Answers a refused request, once its body (if any) has been read and thrown away. */
function refuse(req: Request, res: Response, error: unknown): Promise<void> | void {
  if (!hasBody(req)) return sendError(req, res, toApiError(error));
  return drainRequest(req).then(() => sendError(req, res, toApiError(error)));
}

async function admitAfter(work: () => Promise<void>, deps: PipelineDeps, req: Request, res: Response, next: NextFunction): Promise<void> {
  try {
    await work();
    await admit(deps, req, res, next);
  } catch (error) {
    await refuse(req, res, error);
  }
}

/**
 * Authenticates the key (if any) and charges the request's minimum cost, before a byte of the body is
 * read. A client address that sent too many invalid keys gets 429 instead of a key lookup; keys known
 * from memory (valid or unknown) and malformed ones cost no lookup and are answered as usual. A GET
 * that a registered shortcut can answer (route-shortcuts.ts) is answered here, before the router.
 * The common case (a key known from memory, a charge the key's lease covers) runs without waiting
 * for anything; the rest takes the same steps asynchronously.
 */
function authenticateAndLimit(deps: PipelineDeps): RequestHandler {
  // returns the promise of the steps that wait, so that the front door sees them fail
  return (req, res, next): Promise<void> | void => {
    const state = (req as PlatformRequest).platform;
    const units = routeCostOf(req.method, req.path)?.minimum ?? 1;
    try {
      const presented = presentedKey(req);
      const known = authFromMemory(deps, presented);
      if (known && known.state !== 'invalid') {
        state.auth = known;
        const charged = deps.charges.chargeFromMemory(req, res, units);
        if (charged === 'charged') return admit(deps, req, res, next);
        if (charged !== 'undecided') return refuse(req, res, charged);
        return admitAfter(() => deps.charges.charge(req, res, units), deps, req, res, next);
      }
      const work = async (): Promise<void> => {
        state.auth = known ?? (await authenticate(deps, req, presented as string));
        if (state.auth.state === 'invalid') await deps.charges.recordAuthFailure(req).catch(() => undefined);
        await deps.charges.charge(req, res, units);
      };
      return admitAfter(work, deps, req, res, next);
    } catch (error) {
      return refuse(req, res, error);
    }
  };
}

/** What is left of the request's deadline (REQUEST_TIMEOUT_MS from its start) for its body. */
function timeLeftMs(state: PlatformRequestState): number {
  return REQUEST_TIMEOUT_MS - Number(process.hrtime.bigint() - state.startedAt) / 1e6;
}

/**
 * Reads the JSON body of an authenticated request within its route's limits, charging its inflated
 * bytes as they arrive, then charges what the body adds to the cost. The route, its scope and its
 * minimum cost are known before a byte is read: without a valid key, for a route that takes no body
 * (or no route) and for a key that lacks the route's scope, the body is read and thrown away without
 * being inflated (the route answers 401 or 404, or 403 here). A body without
 * `Content-Type: application/json` is refused. Public routes take no body (none does today): a
 * body sent to one is thrown away like any other.
 */
function bodyParsing(deps: PipelineDeps): RequestHandler {
  return async (req, res, next) => {
    if (!hasBody(req)) return next();
    const state = (req as PlatformRequest).platform;
    const timeoutMs = timeLeftMs(state);
    const route = state.auth.state === 'valid' ? deps.keyedRoutes?.keyedRoute(req.method, req.path) : null;
    if (state.auth.state !== 'valid' || !route?.takesBody) {
      await drainRequest(req, timeoutMs);
      return next();
    }
    try {
      if (route.scope && !state.auth.key.scopes.includes(route.scope)) {
        await drainRequest(req, timeoutMs);
        throw scopeError(route.scope, state.auth.key);
      }
      if (!req.is('application/json')) {
        await drainRequest(req, timeoutMs);
        throw new ApiError('invalid_request', 'The request body must be JSON with Content-Type: application/json.');
      }
      const charset = (req.get('content-type') ?? '').match(/charset\s*=\s*"?([^";\s]+)/i)?.[1]?.toLowerCase();
      if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
        await drainRequest(req, timeoutMs);
        throw new ApiError('invalid_request', 'The request body must be UTF-8 encoded JSON.');
      }
      const cost = routeCostOf(req.method, req.path);
      const outcome = await readJsonBody(req, {
        maxBytes: maxBodyBytes(cost),
        timeoutMs,
        onBytes: deps.onBodyBytes,
        charge: deps.charges.chargeAsInflated(req, res),
      });
      if (!outcome.ok) throw outcome.error;
      req.body = outcome.body;
      await deps.charges.charge(req, res, requestCost(cost, outcome.body, outcome.bytes) - state.cost);
      next();
    } catch (error) {
      sendError(req, res, toApiError(error));
    }
  };
}

/** Refuses a request whose body length cannot be known (an unknown transfer coding) before anything else is done with it. */
const transferCoding: RequestHandler = (req, res, next) => {
  const refused = refusedTransferCoding(req);
  if (refused) return sendError(req, res, refused);
  next();
};

/**
 * Compresses responses of clients that accept a content encoding. Without an `Accept-Encoding`
 * header nothing would be compressed, so the response is not wrapped at all.
 */
function compressionWhenAccepted(): RequestHandler {
  const compress = compression({ threshold: 1024 });
  return (req, res, next) => (req.headers['accept-encoding'] ? compress(req, res, next) : next());
}

/**
 * The pipeline up to the shortcuts runs on the server's `request` event, ahead of Express's router
 * (docs/adr/0010-request-pipeline-order.md): request id and security headers, CORS (when
 * configured: a preflight from an allowed origin is answered here), the transfer coding check, compression, the key
 * check and the rate-limit charge, then a shortcut answer or the Express app. A lookup answered from
 * memory, a 401 and a 429 never walk the router; they use Express's request and response helpers all
 * the same (the prototypes are set here, as Express would set them).
 */
export function frontDoor(app: Express, deps: PipelineDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const steps: RequestHandler[] = [
    requestContext(deps.onFinish ?? [], deps.publicBaseUrl),
    ...(deps.cors ? [corsStep(deps.cors, deps.keyedRoutes)] : []),
    transferCoding,
    compressionWhenAccepted(),
    authenticateAndLimit(deps),
  ];
  return (incoming, outgoing) => {
    const req = Object.setPrototypeOf(incoming, app.request) as Request;
    const res = Object.setPrototypeOf(outgoing, app.response) as Response;
    noteResponse(outgoing);
    // Node sets res.req; req.res and res.locals are set by Express when the request is handed on
    // (each property added to a request costs more than the rest of its step)
    let step = 0;
    const next = (): void => {
      const handler = steps[step++];
      if (!handler) return handOn(app, req, res);
      try {
        const done: unknown = handler(req, res, next);
        if (done instanceof Promise) done.catch((error: unknown) => failed(req, res, error));
      } catch (error) {
        failed(req, res, error);
      }
    };
    next();
  };
}

/**
 * A step that threw or rejected (a fault: the steps answer refusals themselves). Outside Express
 * nothing else would catch it, and an unhandled rejection ends the process: the client gets the
 * error envelope if nothing was sent yet, else its connection is closed.
 */
function failed(req: Request, res: Response, error: unknown): void {
  try {
    if (res.headersSent) res.destroy();
    else sendError(req, res, toApiError(error));
  } catch {
    res.destroy();
  }
}

/**
 * Installs the pipeline: the front door replaces the server's `request` listener (the Express app),
 * and the body is read by a first Express middleware, ahead of the Nest router.
 */
export function installPipeline(server: Server, app: Express, deps: PipelineDeps): void {
  const listeners = server.listeners('request');
  if (listeners.length !== 1 || listeners[0] !== (app as unknown)) throw new Error('the HTTP server must have the Express app as its only request listener');
  server.removeAllListeners('request');
  server.on('request', frontDoor(app, deps));
  app.use(bodyParsing(deps));
}
