import { docUrlFor } from '@bhis/api-platform';
import { ERROR_CODES, ErrorCode } from '@bhis/envelope';
import type { JsonObject } from './json';

/** The two ways to present a key; every operation needs one of them except the public ones. */
export const SECURITY_SCHEMES: JsonObject = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'API key (sk_live_... or sk_demo_...)',
    description: 'Preferred: `Authorization: Bearer <API_KEY>`.',
  },
  api_key: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'Alternative: `X-API-Key: <API_KEY>`.' },
};

export const GLOBAL_SECURITY: JsonObject[] = [{ bearer: [] }, { api_key: [] }];

const ref = (kind: 'headers' | 'schemas', name: string): JsonObject => ({ $ref: `#/components/${kind}/${name}` });

/** Headers of every response under /api/ (errors included), and the one only a 429 has. */
export const RESPONSE_HEADERS: JsonObject = {
  'X-Request-Id': {
    description: 'The request id, also in `meta.request_id`: the `X-Request-Id` the client sent when it is 1-128 letters, digits and `-_.:+/=`, else `req_` and 24 hex digits.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9._:+/=-]{1,128}$', maxLength: 128 },
  },
  'X-RateLimit-Limit': {
    description: 'Units per 60-second window for this key (or client address without a key).',
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 10_000_000 },
  },
  'X-RateLimit-Remaining': {
    description: 'Units left in the current window.',
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 10_000_000 },
  },
  'X-RateLimit-Reset': {
    description: 'When the window resets: ISO 8601 UTC, the same instant as `meta.rate_limit.reset_at`.',
    schema: { type: 'string', format: 'date-time', maxLength: 24 },
  },
  'X-RateLimit-Cost': {
    description: 'Units this request cost (1; batch 1 per 50 BBLs; portfolio analysis and CSV export 1 per 100 BBLs, at least 5; a new or changed monitor 1 per 100 BBLs (of a portfolio: per 100 of its buildings); any body at least 1 per 64 KiB after decompression).',
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 10_000 },
  },
  'Idempotent-Replayed': {
    description: 'On POST and PATCH: `true` when this is the stored answer of an earlier request with the same `Idempotency-Key` and body.',
    schema: { type: 'string', enum: ['true'] },
  },
  'Retry-After': {
    description: 'Whole seconds until the window frees enough units for the request (429), or until the request in flight with the same `Idempotency-Key` is likely answered (409).',
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 60 },
  },
};

export function responseHeaders(status: string): JsonObject {
  const names = ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-RateLimit-Cost'];
  if (status === '429' || status === '409') names.push('Retry-After');
  return Object.fromEntries(names.map((name) => [name, ref('headers', name)]));
}

const META_EXAMPLE: JsonObject = {
  request_id: 'req_5f0c6b1e9a3d4c2b1a0f9e8d',
  api_version: 'v1',
  timestamp: '2026-11-21T10:00:00.000Z',
  rate_limit: { limit: 6000, remaining: 5999, reset_at: '2026-11-21T10:01:00.000Z' },
};

/** The host of the examples' absolute URLs (a deployment answers with its own). */
export const EXAMPLE_BASE_URL = 'https://bhis.example.org';

/** The error envelope every 4xx and 5xx carries; `code` is one of ERROR_CODES. */
export const ERROR_SCHEMAS: JsonObject = {
  ErrorBody: {
    type: 'object',
    required: ['code', 'message', 'status'],
    properties: {
      code: { type: 'string', enum: Object.keys(ERROR_CODES), description: 'Stable machine-readable code; see `doc_url`.' },
      message: { type: 'string', maxLength: 2000, description: 'What went wrong, for people; never stack traces or SQL.' },
      status: { type: 'integer', format: 'int32', minimum: 400, maximum: 599, description: 'The HTTP status, repeated.' },
      doc_url: { type: 'string', format: 'uri-reference', maxLength: 2300, description: 'Where the code is documented, as an absolute URL on the host that answered (or PUBLIC_BASE_URL): `<base>/api-docs.md#error-<code>`. Only an answer given before a request\'s headers could be read (a malformed request line, a CONNECT) carries the path alone.' },
      details: { type: 'object', maxProperties: 50, additionalProperties: true, description: 'Extra structured detail for some codes.' },
    },
  },
  ErrorEnvelope: {
    type: 'object',
    required: ['error', 'meta'],
    properties: { error: ref('schemas', 'ErrorBody'), meta: ref('schemas', 'MetaDto') },
  },
};

/** One named example per error code, referenced by the error responses. */
export function errorExamples(codes: ErrorCode[]): JsonObject {
  return Object.fromEntries(codes.map((code) => [`error_${code}`, errorExample(code)]));
}

function errorExample(code: ErrorCode): JsonObject {
  const { status, summary } = ERROR_CODES[code];
  return { summary, value: { error: { code, message: summary, status, doc_url: docUrlFor(code, EXAMPLE_BASE_URL) }, meta: META_EXAMPLE } };
}

/** A documented error response carrying the given codes (all of one HTTP status). */
export function errorResponse(codes: ErrorCode[]): JsonObject {
  return {
    description: codes.map((code) => `\`${code}\`: ${ERROR_CODES[code].summary}`).join('\n\n'),
    content: {
      'application/json': {
        schema: ref('schemas', 'ErrorEnvelope'),
        examples: Object.fromEntries(codes.map((code) => [code, { $ref: `#/components/examples/error_${code}` }])),
      },
    },
  };
}

/** Errors any operation that needs a key can answer with. */
export const AUTHENTICATED_ERRORS: ErrorCode[] = ['missing_api_key', 'invalid_api_key', 'insufficient_scope', 'rate_limit_exceeded', 'internal_error', 'service_unavailable'];
/** Errors any operation with a JSON body can answer with. */
/** What every POST and PATCH with a key answers about its `Idempotency-Key` (libs/api-platform/src/idempotency.ts). */
export const IDEMPOTENCY_ERRORS: ErrorCode[] = ['invalid_idempotency_key', 'idempotency_key_in_flight', 'idempotency_key_reused'];

export const IDEMPOTENCY_KEY_PARAMETER: JsonObject = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe (draft-ietf-httpapi-idempotency-key-header-06): for 24 hours a request with the same key, route and body gets ' +
    'the first answer again (`Idempotent-Replayed: true`) instead of running twice; another body with the key is 422 ' +
    '`idempotency_key_reused`, a request while the first is in flight 409 `idempotency_key_in_flight`. An error answer gives the key up. ' +
    'An sf-string (`"..."`) or the bare value: 1-255 visible ASCII characters.',
  schema: { type: 'string', minLength: 1, maxLength: 257, example: '"8e03978e-40d5-43e8-bc93-6894a57f9324"' },
};

export const BODY_ERRORS: ErrorCode[] = ['invalid_request', 'request_timeout', 'payload_too_large', 'unsupported_media_type'];
/** Errors every operation can answer with. */
export const ANY_ERRORS: ErrorCode[] = ['rate_limit_exceeded', 'internal_error'];
