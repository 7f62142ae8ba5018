/**
 * Every error code the API can answer with, its HTTP status and one line for the reference docs.
 * The `doc_url` of an error points at `/api-docs.md#error-<code>`.
 */
export const ERROR_CODES = {
  invalid_bbl: { status: 400, summary: 'The BBL is not a valid 10-digit number (borough 1-5, block not 0).' },
  invalid_request: { status: 400, summary: 'Malformed body or parameters; the message names the parameter.' },
  too_many_bbls: { status: 400, summary: 'More BBLs than the endpoint accepts (500 for batch, 10,000 for portfolio and export).' },
  missing_api_key: { status: 401, summary: 'No API key in Authorization: Bearer or X-API-Key.' },
  invalid_api_key: { status: 401, summary: 'The key is unknown, expired or revoked.' },
  invalid_idempotency_key: { status: 400, summary: 'The Idempotency-Key header is not a string of 1-255 visible ASCII characters (a quoted sf-string or a bare token), or was sent twice.' },
  insufficient_scope: { status: 403, summary: 'The key lacks the scope the endpoint needs; the message names it.' },
  not_found: { status: 404, summary: 'No such route or resource.' },
  building_not_found: { status: 404, summary: 'The BBL is valid but not in the data set.' },
  event_not_found: { status: 404, summary: 'The building has no event with this id (an id of another building included).' },
  portfolio_not_found: { status: 404, summary: 'No current landlord portfolio has this id (ids follow the current registrations: look one up by building).' },
  method_not_allowed: { status: 405, summary: 'The route exists but not with this HTTP method (see the Allow header).' },
  request_timeout: { status: 408, summary: 'The request (headers and body) did not arrive within its deadline (20 s for the headers, 60 s for the whole request).' },
  conflict: { status: 409, summary: 'The request conflicts with the state of the resource (e.g. cancelling a run that has ended); the message says which.' },
  idempotency_key_in_flight: { status: 409, summary: 'A request with this Idempotency-Key is still being processed; retry after the seconds given in Retry-After.' },
  payload_too_large: { status: 413, summary: "The request body is over its route's limit: 256,384 bytes for portfolio, monitor and export bodies, 28,384 for the rest." },
  unsupported_media_type: { status: 415, summary: 'The request body uses a Content-Encoding other than none or gzip.' },
  idempotency_key_reused: { status: 422, summary: 'This Idempotency-Key was used within 24 hours for this route with a different request body.' },
  rate_limit_exceeded: { status: 429, summary: 'Rate limit exceeded; wait the seconds given in Retry-After.' },
  internal_error: { status: 500, summary: 'Server fault; quote meta.request_id to support.' },
  service_unavailable: { status: 503, summary: 'A backing service (database or cache) is unavailable; retry shortly.' },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export function statusOf(code: ErrorCode): number {
  return ERROR_CODES[code].status;
}

export function isErrorCode(value: string): value is ErrorCode {
  return Object.prototype.hasOwnProperty.call(ERROR_CODES, value);
}
