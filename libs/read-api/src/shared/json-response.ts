import { hash } from 'node:crypto';
import type { Request, Response } from 'express';
import { endJsonText, endResponse, nextPageLinkHeader, nextPageUrl, platformState, WrittenAnswer } from '@bhis/api-platform';
import { Links, metaText, Pagination } from '@bhis/envelope';

/**
 * Daily data, per-key responses: browsers and client caches may keep a response for 5 minutes and then
 * revalidate it with If-None-Match (cheap: 304 without a body). `private` because responses belong to
 * an API key (rate-limit status in `meta`) and must not be stored by shared caches.
 */
export const CACHE_CONTROL_DAILY_DATA = 'private, max-age=300';

export interface RawEnvelope {
  /** The `data` member as JSON text (the stored documents are spliced in without re-parsing them). */
  data: string;
  /** `digestOf(data)`, when it was computed once for data kept in memory. */
  dataDigest?: string;
  pagination: Pagination | null;
  links: Links;
}

/** A digest of a `data` text, kept with data held in memory so that its ETag costs no hash of the whole body. */
export function digestOf(data: string): string {
  return hash('sha1', data, 'base64url');
}

/**
 * ETag of a response body version: a hash of everything in the body except `meta` (request id, time,
 * rate-limit status differ on every response and say nothing about the data). Weak, because the body
 * is not byte-identical between two responses with the same ETag and because of compression.
 */
export function etagOf(body: RawEnvelope, paginationText: string, linksText: string): string {
  const data = body.dataDigest ?? digestOf(body.data);
  return `W/"${hash('sha1', `${data}\n${paginationText}\n${linksText}`, 'base64url')}"`;
}

/** True when an If-None-Match header names the ETag (weak comparison, `*` matches anything). */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag.replace(/^W\//, '') === opaque;
  });
}

function envelopeText(req: Request, body: RawEnvelope, paginationText: string, linksText: string): string {
  return `{"data":${body.data},"meta":${metaText(platformState(req))},"pagination":${paginationText},"_links":${linksText}}`;
}

/**
 * A page with a next one gets `_links.next` (its `self`, the request's own URL, with the next cursor)
 * and the same URL in a `Link: <...>; rel="next"` header (RFC 8288).
 */
function nextPageOf(body: RawEnvelope): string | null {
  const cursor = body.pagination?.next_cursor;
  const self = body.links['self'];
  return cursor && self !== undefined ? nextPageUrl(self, cursor) : null;
}

/** Sends a cacheable GET response with an ETag, or 304 when the client already has this version. */
function sendCacheable(req: Request, res: Response, page: RawEnvelope): void {
  const next = nextPageOf(page);
  const body = next === null ? page : { ...page, links: { ...page.links, next } };
  const paginationText = JSON.stringify(body.pagination);
  const linksText = JSON.stringify(body.links);
  const etag = etagOf(body, paginationText, linksText);
  // Vary names Accept-Encoding whether or not this response was compressed (compression adds it only when it is asked for)
  const headers = ['ETag', etag, 'Cache-Control', CACHE_CONTROL_DAILY_DATA, 'Vary', 'Authorization, X-API-Key, Accept-Encoding'];
  if (next !== null) headers.push('Link', nextPageLinkHeader(next));
  if (matchesIfNoneMatch(req.headers['if-none-match'], etag)) endResponse(req, res, 304, headers, null);
  else endJsonText(req, res, 200, envelopeText(req, body, paginationText, linksText), headers);
}

/** Sends a response that is not cached (answers to POST requests). */
function sendUncached(req: Request, res: Response, body: RawEnvelope): void {
  endJsonText(req, res, 200, envelopeText(req, body, JSON.stringify(body.pagination), JSON.stringify(body.links)), ['Cache-Control', 'no-store']);
}

/** A read endpoint's answer: cacheable (ETag, 304, `Cache-Control`) or not (answers to POST requests). */
class EnvelopeAnswer extends WrittenAnswer {
  constructor(
    private readonly envelope: RawEnvelope,
    private readonly cacheable: boolean,
  ) {
    super();
  }

  write(req: Request, res: Response): void {
    if (this.cacheable) sendCacheable(req, res, this.envelope);
    else sendUncached(req, res, this.envelope);
  }
}

/** The answer of a GET: the envelope with its ETag and cache headers, or 304 for a client that has this version. */
export function cacheable(envelope: RawEnvelope): WrittenAnswer {
  return new EnvelopeAnswer(envelope, true);
}

/** The answer of a POST: the envelope, `Cache-Control: no-store`. */
export function uncached(envelope: RawEnvelope): WrittenAnswer {
  return new EnvelopeAnswer(envelope, false);
}

/** Adds `"name": valueText` to a JSON object's text (an object without members included). */
export function withMember(objectText: string, name: string, valueText: string): string {
  const head = objectText.slice(0, objectText.lastIndexOf('}')).trimEnd();
  const separator = head.endsWith('{') ? '' : ',';
  return `${head}${separator}${JSON.stringify(name)}:${valueText}}`;
}
