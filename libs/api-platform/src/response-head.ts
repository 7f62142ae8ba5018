import type { Response } from 'express';
import type { RateLimitStatus } from '@bhis/envelope';
import type { PlatformRequestState } from './request-context';

const HSTS = 'max-age=63072000; includeSubDomains';
const SECURITY_HEADERS = ['Strict-Transport-Security', HSTS, 'X-Content-Type-Options', 'nosniff', 'Referrer-Policy', 'no-referrer'] as const;

/**
 * The headers every answer carries (request id, security headers, rate-limit cost and status), as a
 * flat `[name, value, ...]` list. An answer given at the front door is written with one `writeHead` of
 * this list and its own headers (`extra`, which win over a platform header of the same name): Node then
 * validates each header once and keeps no header map, where `setHeader` per header was a tenth of the
 * CPU of a 401 (docs/adr/0010-request-pipeline-order.md).
 */
export function platformHeaders(state: PlatformRequestState, extra: readonly string[]): string[] {
  const head: string[] = ['X-Request-Id', state.requestId, ...SECURITY_HEADERS];
  if (state.cost > 0 && !named(extra, 'X-RateLimit-Cost')) head.push('X-RateLimit-Cost', String(state.cost));
  const status = state.rateLimit;
  if (status) head.push('X-RateLimit-Limit', String(status.limit), 'X-RateLimit-Remaining', String(status.remaining), 'X-RateLimit-Reset', status.reset_at);
  const cors = state.cors;
  if (cors) for (let i = 0; i < cors.length; i++) head.push(cors[i] as string);
  for (let i = 0; i < extra.length; i += 2) head.push(extra[i] as string, extra[i + 1] as string);
  return head;
}

function named(headers: readonly string[], name: string): boolean {
  for (let i = 0; i < headers.length; i += 2) if (headers[i] === name) return true;
  return false;
}

/** Sets the platform's headers on a response that goes on to the Express router (it sets its own as it goes). */
export function applyPlatformHeaders(res: Response, state: PlatformRequestState): void {
  const head = platformHeaders(state, []);
  for (let i = 0; i < head.length; i += 2) res.setHeader(head[i] as string, head[i + 1] as string);
}

export function writeRateLimitHeaders(res: Response, status: RateLimitStatus | null): void {
  if (!status) return;
  res.setHeader('X-RateLimit-Limit', String(status.limit));
  res.setHeader('X-RateLimit-Remaining', String(status.remaining));
  res.setHeader('X-RateLimit-Reset', status.reset_at);
}
