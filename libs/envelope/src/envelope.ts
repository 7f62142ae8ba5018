import { ErrorCode } from './error-codes';

export const API_VERSION = 'v1';

/** The path every endpoint of this version lives under (docs/interface-spec.md: `{base_url}` ends in it). */
export const API_BASE_PATH = `/api/${API_VERSION}`;

/** The path of an endpoint of this version: `apiPath('/buildings')` is `/api/v1/buildings`. */
export function apiPath(path: string): string {
  return `${API_BASE_PATH}${path}`;
}

export interface RateLimitStatus {
  limit: number;
  remaining: number;
  reset_at: string;
}

export interface Meta {
  request_id: string;
  api_version: string;
  timestamp: string;
  rate_limit: RateLimitStatus | null;
}

export interface Pagination {
  limit: number;
  has_more: boolean;
  next_cursor: string | null;
}

export type Links = Record<string, string>;

export interface SuccessEnvelope<T> {
  data: T;
  meta: Meta;
  pagination: Pagination | null;
  _links: Links;
}

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  status: number;
  doc_url?: string;
  details?: Record<string, unknown>;
}

export interface ErrorEnvelope {
  error: ErrorBody;
  meta: Meta;
}

export interface RequestContext {
  requestId: string;
  rateLimit: RateLimitStatus | null;
}

let timestampMs = -1;
let timestampText = '';

/** The current time as ISO text, formatted once per millisecond (responses under load share it). */
function timestampNow(): string {
  const ms = Date.now();
  if (ms !== timestampMs) {
    timestampMs = ms;
    timestampText = new Date(ms).toISOString();
  }
  return timestampText;
}

export function buildMeta(ctx: RequestContext, now?: Date): Meta {
  return {
    request_id: ctx.requestId,
    api_version: API_VERSION,
    timestamp: now ? now.toISOString() : timestampNow(),
    rate_limit: ctx.rateLimit,
  };
}

function numberText(value: number): string {
  return Number.isFinite(value) ? String(value) : 'null';
}

/**
 * `JSON.stringify(buildMeta(ctx))`, written out: every response carries a meta, and building the
 * object to serialise it was garbage on every request. The texts it puts in without escaping are
 * made by the service (ISO times); the request id goes through JSON.stringify.
 */
export function metaText(ctx: RequestContext): string {
  const limit = ctx.rateLimit;
  const rateLimit =
    limit === null
      ? 'null'
      : `{"limit":${numberText(limit.limit)},"remaining":${numberText(limit.remaining)},"reset_at":${JSON.stringify(limit.reset_at)}}`;
  return `{"request_id":${JSON.stringify(ctx.requestId)},"api_version":"${API_VERSION}","timestamp":"${timestampNow()}","rate_limit":${rateLimit}}`;
}

export function successEnvelope<T>(
  ctx: RequestContext,
  data: T,
  options: { pagination?: Pagination | null; links?: Links } = {},
): SuccessEnvelope<T> {
  return { data, meta: buildMeta(ctx), pagination: options.pagination ?? null, _links: options.links ?? {} };
}

export function errorEnvelope(ctx: RequestContext, error: ErrorBody): ErrorEnvelope {
  return { error, meta: buildMeta(ctx) };
}
