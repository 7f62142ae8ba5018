import type { ServerResponse } from 'node:http';
import type { PlatformRequestState } from './request-context';

const HSTS = 'max-age=63072000; includeSubDomains';
const SECURITY_HEADERS = ['Strict-Transport-Security', HSTS, 'X-Content-Type-Options', 'nosniff', 'Referrer-Policy', 'no-referrer'] as const;

/**
 * The headers every answer carries (request id, security headers, rate-limit cost and status, CORS)
 * followed by the answer's own (`extra`, a flat `[name, value, ...]` list), as one flat list for
 * `writeHead` (platform-http-server.ts): Node then validates each header once, where `setHeader` per
 * header was a tenth of the CPU of a 401 (docs/adr/0010-request-pipeline-order.md). A cost the answer
 * names (a 429's) or set on the response already wins over the request's; a `Vary` set on the response
 * already keeps its names, with CORS's added.
 */
export function platformHeaders(state: PlatformRequestState, extra: readonly string[], res: Pick<ServerResponse, 'hasHeader' | 'getHeader' | 'setHeader'>): string[] {
  const head: string[] = ['X-Request-Id', state.requestId, ...SECURITY_HEADERS];
  if (state.cost > 0 && !named(extra, 'X-RateLimit-Cost') && !res.hasHeader('x-ratelimit-cost')) head.push('X-RateLimit-Cost', String(state.cost));
  const status = state.rateLimit;
  if (status) head.push('X-RateLimit-Limit', String(status.limit), 'X-RateLimit-Remaining', String(status.remaining), 'X-RateLimit-Reset', status.reset_at);
  const cors = state.cors;
  if (cors) {
    for (let i = 0; i < cors.length; i += 2) {
      const vary = cors[i] === 'Vary' ? res.getHeader('vary') : undefined;
      if (vary !== undefined) res.setHeader('Vary', `${String(vary)}, ${cors[i + 1] as string}`);
      else head.push(cors[i] as string, cors[i + 1] as string);
    }
  }
  for (let i = 0; i < extra.length; i += 2) head.push(extra[i] as string, extra[i + 1] as string);
  return head;
}

function named(headers: readonly string[], name: string): boolean {
  for (let i = 0; i < headers.length; i += 2) if (headers[i] === name) return true;
  return false;
}
