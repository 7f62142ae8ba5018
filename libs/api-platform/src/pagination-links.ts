import type { Request, Response } from 'express';
import type { SuccessEnvelope } from '@bhis/envelope';
import { baseUrl, nextPageLinkHeader, nextPageUrl } from './links';

/**
 * An envelope a controller returns with a next page (`pagination.next_cursor`) gets a `_links.next`
 * and a `Link: <...>; rel="next"` header, built from the request's own URL. Applied to every value a
 * controller returns, by the one response path (platform-http-server.ts, `reply`); answers that write
 * themselves (the read endpoints) do the same in their own writer (`sendCacheable`).
 */
export function withNextPageLink(req: Request, res: Response, body: unknown, publicBaseUrl: string | undefined): unknown {
  const cursor = (body as Partial<SuccessEnvelope<unknown>> | undefined)?.pagination?.next_cursor;
  if (typeof cursor !== 'string') return body;
  const envelope = body as SuccessEnvelope<unknown>;
  const url = nextPageUrl(`${baseUrl(req, publicBaseUrl)}${req.originalUrl}`, cursor);
  res.setHeader('Link', nextPageLinkHeader(url));
  return { ...envelope, _links: { ...envelope._links, next: url } };
}
