import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { AppConfig } from '@bhis/config';
import { endResponse } from './json-text';
import { platformState } from './request-context';
import { CONFIG } from './tokens';

/** The methods the API's routes answer. */
const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
/** The request headers a client of the API sends besides the CORS-safelisted ones. */
const ALLOWED_HEADERS = 'Authorization, X-API-Key, Content-Type, Content-Encoding, If-None-Match, Idempotency-Key, X-Request-Id, traceparent, tracestate';
/** The response headers a browser script may read besides the CORS-safelisted ones. */
const EXPOSED_HEADERS = [
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-RateLimit-Cost',
  'Retry-After',
  'ETag',
  'Link',
  'Location',
  'Content-Disposition',
  'X-Export-Not-Found',
  'X-Export-Not-Found-Bbls',
  'X-Export-Invalid',
  'X-Export-Duplicates',
].join(', ');
/** How long a browser may keep a preflight's answer (seconds). */
const PREFLIGHT_MAX_AGE = '600';

/**
 * Which browser origins may call the API (`CORS_ORIGINS`: a list of origins, or `*` for any). A
 * request from an allowed origin gets the CORS headers with its answer, whatever the answer (a 401
 * and a 429 included, so the script can read them); a preflight from one is answered 204 by
 * `CorsStep`, before the key check and the charge. Requests from other origins are served as if CORS did
 * not exist: no CORS header, and their preflights go on like any request (and are charged).
 */
export class CorsPolicy {
  private readonly anyOrigin: boolean;
  private readonly origins: ReadonlySet<string>;
  /** The headers of an answer to each allowed origin, made once (`*`: one list for every origin). */
  private readonly answerHeaders = new Map<string, readonly string[]>();

  constructor(origins: readonly string[]) {
    this.anyOrigin = origins.includes('*');
    this.origins = new Set(origins);
  }

  /** The CORS headers of an answer to a request from `origin`, or null when the origin is not allowed. */
  headersFor(origin: string): readonly string[] | null {
    const key = this.anyOrigin ? '*' : origin;
    const known = this.answerHeaders.get(key);
    if (known) return known;
    if (!this.anyOrigin && !this.origins.has(origin)) return null;
    // the allowed origins are few (configured), so their lists stay few
    const headers = this.anyOrigin
      ? ['Access-Control-Allow-Origin', '*', 'Access-Control-Expose-Headers', EXPOSED_HEADERS]
      : ['Access-Control-Allow-Origin', origin, 'Access-Control-Expose-Headers', EXPOSED_HEADERS, 'Vary', 'Origin'];
    this.answerHeaders.set(key, headers);
    return headers;
  }

  /** The headers of a preflight's 204 for an allowed origin. */
  preflightHeaders(answer: readonly string[]): string[] {
    return [
      answer[0] as string,
      answer[1] as string,
      'Access-Control-Allow-Methods',
      ALLOWED_METHODS,
      'Access-Control-Allow-Headers',
      ALLOWED_HEADERS,
      'Access-Control-Max-Age',
      PREFLIGHT_MAX_AGE,
      'Vary',
      'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
    ];
  }
}

/**
 * CORS, after the request context and before the key check: a preflight (an OPTIONS with `Origin` and
 * `Access-Control-Request-Method`) from an allowed origin is answered 204 here, neither charged nor
 * needing a key; any other request from an allowed origin takes the CORS headers along to its answer
 * (written with the platform's headers, response-head.ts) and goes on, through the key check and the
 * charge like every request. Without `CORS_ORIGINS` nothing is done.
 */
@Injectable()
export class CorsStep {
  private readonly policy: CorsPolicy | null;

  constructor(@Inject(CONFIG) config: AppConfig) {
    this.policy = config.CORS_ORIGINS.length > 0 ? new CorsPolicy(config.CORS_ORIGINS) : null;
  }

  /** False when the request is answered here (an allowed preflight). */
  run(req: Request, res: Response): boolean {
    const origin = req.headers.origin;
    const policy = this.policy;
    if (origin === undefined || policy === null) return true;
    const headers = policy.headersFor(origin);
    if (headers === null) return true;
    const state = platformState(req);
    if (req.method === 'OPTIONS' && typeof req.headers['access-control-request-method'] === 'string') {
      state.route = 'preflight';
      endResponse(req, res, 204, policy.preflightHeaders(headers), null);
      return false;
    }
    state.cors = headers;
    return true;
  }
}
