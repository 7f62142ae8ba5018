import { HttpException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiError, ERROR_CODES, ErrorBody, ErrorCode, isErrorCode, metaText } from '@bhis/envelope';
import { platformState } from './request-context';
import { endJsonText } from './json-text';
import { baseUrl } from './links';

/** Connection-level failures of Postgres or Redis: the service is unavailable, not broken. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
]);
const UNAVAILABLE_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Connection is closed/i,
  /Stream isn't writeable/i,
  /Cannot use a pool after calling end/i,
  /the database system is (starting up|shutting down)/i,
  /MaxRetriesPerRequestError|max retries per request/i,
];

export function isUnavailableError(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { code?: unknown; message?: unknown; errors?: unknown; driverError?: unknown };
  if (typeof e.code === 'string' && (UNAVAILABLE_CODES.has(e.code) || e.code.startsWith('08'))) return true;
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.some((re) => re.test(e.message as string))) return true;
  if (Array.isArray(e.errors) && e.errors.some(isUnavailableError)) return true; // AggregateError
  return e.driverError !== undefined && isUnavailableError(e.driverError);
}

const HTTP_STATUS_CODES: Record<number, ErrorCode> = {
  400: 'invalid_request',
  401: 'missing_api_key',
  403: 'insufficient_scope',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limit_exceeded',
  503: 'service_unavailable',
};

/** Maps anything thrown to an ApiError. Unknown errors become internal_error (their text is never shown). */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isUnavailableError(error)) {
    return new ApiError('service_unavailable', 'A backing service is temporarily unavailable. Retry shortly.');
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const response = error.getResponse();
    const code = HTTP_STATUS_CODES[status];
    if (code) {
      const message =
        typeof response === 'object' && response && 'message' in response
          ? [(response as { message: unknown }).message].flat().join('; ')
          : error.message;
      return new ApiError(code, status === 404 ? 'The requested resource does not exist.' : message);
    }
  }
  return new ApiError('internal_error', 'An unexpected error occurred. Quote meta.request_id to support.');
}

const DOC_URLS = Object.fromEntries(Object.keys(ERROR_CODES).map((code) => [code, `/api-docs.md#error-${code.replace(/_/g, '-')}`])) as Record<ErrorCode, string>;

/** Where a code is documented: relative to the site root, or absolute from the request's base URL. */
export function docUrlFor(code: ErrorCode, base = ''): string {
  return `${base}${DOC_URLS[code]}`;
}

/** The one writer of error responses (the exception filter's). */
export function sendError(req: Request, res: Response, error: ApiError): void {
  const state = platformState(req);
  if (res.headersSent) {
    res.end();
    return;
  }
  const headers: string[] = [];
  const own = error.options.headers;
  if (own) for (const name in own) headers.push(name, own[name] as string);
  headers.push('Cache-Control', 'no-store');
  const code = isErrorCode(error.code) ? error.code : 'internal_error';
  const status = ERROR_CODES[code].status;
  const body: ErrorBody = { code, message: error.message, status, doc_url: docUrlFor(code, baseUrl(req, state.publicBaseUrl)), ...(error.options.details ? { details: error.options.details } : {}) };
  // the text of errorEnvelope(state, body)
  endJsonText(req, res, status, `{"error":${JSON.stringify(body)},"meta":${metaText(state)}}`, headers);
}
