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

/** Characters of a request's path that may not stand in a `Link` header's `<...>` as they are. */
const UNSAFE_IN_LINK = /[<>"\s]/g;

/**
 * The URL of the next page of a cursor-paginated answer: the request's own URL (`selfUrl`, absolute)
 * with its `cursor` parameter set to the next page's cursor, every other parameter kept.
 */
export function nextPageUrl(selfUrl: string, cursor: string): string {
  const mark = selfUrl.indexOf('?');
  const path = (mark < 0 ? selfUrl : selfUrl.slice(0, mark)).replace(UNSAFE_IN_LINK, (c) => encodeURIComponent(c));
  const params = new URLSearchParams(mark < 0 ? '' : selfUrl.slice(mark + 1));
  params.set('cursor', cursor);
  return `${path}?${params.toString()}`;
}

/** The RFC 8288 `Link` header value naming the next page. */
export function nextPageLinkHeader(url: string): string {
  return `<${url}>; rel="next"`;
}
