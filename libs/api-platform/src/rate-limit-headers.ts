import type { Response } from 'express';
import type { RateLimitStatus } from '@bhis/envelope';

export function writeRateLimitHeaders(res: Response, status: RateLimitStatus | null): void {
  if (!status) return;
  res.setHeader('X-RateLimit-Limit', String(status.limit));
  res.setHeader('X-RateLimit-Remaining', String(status.remaining));
  res.setHeader('X-RateLimit-Reset', status.reset_at);
}
