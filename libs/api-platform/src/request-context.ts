import type { Request, Response } from 'express';
import type { RateLimitStatus, RequestContext } from '@bhis/envelope';
import { ApiError } from '@bhis/envelope';
import type { AuthenticatedKey } from './api-key-store';
import type { TraceParent } from './trace-context';

export type AuthState =
  | { state: 'none' }
  | { state: 'invalid'; reason: string }
  | { state: 'valid'; key: AuthenticatedKey };

/** What the request pipeline (request-context.middleware.ts and the steps after it) learns about a request. */
export interface PlatformRequestState extends RequestContext {
  startedAt: bigint;
  auth: AuthState;
  rateLimit: RateLimitStatus | null;
  /** Rate-limit units charged so far. */
  cost: number;
  /** The route of a request answered before the router matched one (a CORS preflight), for the metrics. */
  route?: string;
  /** Whether the body has been read or thrown away (json-body.guard.ts); else the exception filter throws it away before answering. */
  bodySettled: boolean;
  /** What runs once the response is sent (access log, metrics). */
  onFinish: readonly ResponseFinished[];
  /** PUBLIC_BASE_URL when configured: the base of the absolute links of an answer (links.ts `baseUrl`). */
  publicBaseUrl: string | undefined;
  /** The CORS headers of the answer, for a request from an allowed origin (cors.ts); else null. */
  cors: readonly string[] | null;
  /** The client's W3C trace context (`traceparent`), when it sent a valid one: written to the access log. */
  trace: TraceParent | null;
}

export type PlatformRequest = Request & { platform: PlatformRequestState };

export function platformState(req: Request): PlatformRequestState {
  const state = (req as Partial<PlatformRequest>).platform;
  if (!state) throw new Error('request did not pass through the request context middleware');
  return state;
}

/** The key that authenticated the request (controllers behind the scope guard always have one). */
export function authenticatedKey(req: Request): AuthenticatedKey {
  const auth = platformState(req).auth;
  if (auth.state !== 'valid') throw new ApiError('missing_api_key', 'An API key is required.');
  return auth.key;
}

/** Work done once a response has been sent (access log, metrics), called from one `finish` listener. */
export type ResponseFinished = (req: Request, res: Response) => void;
