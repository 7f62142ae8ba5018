import type { Request } from 'express';

/**
 * The absolute base URL of a request: PUBLIC_BASE_URL when configured, otherwise the scheme and host
 * the request came in on. Express honours X-Forwarded-Proto/Host only from proxies trusted by the
 * TRUST_PROXY setting ("trust proxy"), so a client cannot forge the links.
 */
export function baseUrl(req: Request, publicBaseUrl?: string): string {
  if (publicBaseUrl) return publicBaseUrl.replace(/\/$/, '');
  return `${req.protocol}://${req.host || 'localhost'}`;
}
