import type { Request } from 'express';

/** The absolute URL of the request itself (path and query as sent). */
export function selfLink(base: string, req: Request): string {
  return `${base}${req.originalUrl}`;
}
