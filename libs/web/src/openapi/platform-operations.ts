import type { JsonObject } from './json';

/** `linkFormat`: `uri-template` where links hold `{bbl}`-style parameters (the index's). */
const envelope = (data: JsonObject, linkFormat: 'uri' | 'uri-template' = 'uri'): JsonObject => ({
  type: 'object',
  required: ['data', 'meta', 'pagination', '_links'],
  properties: {
    data,
    meta: { $ref: '#/components/schemas/MetaDto' },
    pagination: { type: 'null' },
    _links: { type: 'object', maxProperties: 50, additionalProperties: { type: 'string', format: linkFormat, maxLength: 2048 } },
  },
});

const check: JsonObject = {
  type: 'object',
  required: ['status'],
  properties: {
    status: { type: 'string', enum: ['up', 'down'] },
    latency_ms: { type: 'integer', format: 'int32', minimum: 0, maximum: 60_000 },
    message: { type: 'string', maxLength: 200 },
  },
};

/**
 * Operations served by the API platform itself, which the platform keeps out of the decorator scan:
 * the index, the health check and this document.
 */
export const PLATFORM_PATHS: JsonObject = {
  '/': {
    get: {
      operationId: 'platform_index',
      tags: ['Platform'],
      summary: 'API index',
      description: 'Links to every endpoint and to the reference files (`/llms.txt`, `/api-docs.md`, `/methodology.md`). Any valid key.',
      responses: {
        '200': {
          description: 'The index; `_links` maps a name to the absolute URL of each endpoint and reference file (an RFC 6570 template where it takes a `{bbl}` or `{id}`).',
          content: {
            'application/json': {
              schema: envelope(
                {
                  type: 'object',
                  required: ['name', 'api_version', 'scorer_id'],
                  properties: {
                    name: { type: 'string', maxLength: 100, examples: ['Building Health Intelligence Service'] },
                    api_version: { type: 'string', const: 'v1' },
                    scorer_id: { type: 'string', maxLength: 40, examples: ['distress_v10_2'] },
                  },
                },
                'uri-template',
              ),
            },
          },
        },
      },
    },
  },
  '/health': {
    get: {
      operationId: 'platform_health',
      tags: ['Platform'],
      summary: 'Health check',
      description: 'The state of Postgres and Redis. No key needed; 503 `service_unavailable` (with the checks in `error.details`) when one is down.',
      security: [],
      responses: {
        '200': {
          description: 'Both backing services answer.',
          content: {
            'application/json': {
              schema: envelope({
                type: 'object',
                required: ['status', 'checks'],
                properties: {
                  status: { type: 'string', const: 'ok' },
                  checks: { type: 'object', required: ['postgres', 'redis'], properties: { postgres: check, redis: check } },
                },
              }),
            },
          },
        },
      },
    },
  },
  '/openapi.json': {
    get: {
      operationId: 'platform_openapi',
      tags: ['Platform'],
      summary: 'This OpenAPI 3.1 document',
      description: 'No key needed.',
      security: [],
      responses: {
        '200': {
          description: 'The OpenAPI document (not wrapped in the envelope).',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['openapi', 'info', 'paths'],
                properties: {
                  openapi: { type: 'string', const: '3.1.0' },
                  info: { type: 'object', additionalProperties: true, maxProperties: 20 },
                  paths: { type: 'object', additionalProperties: true, maxProperties: 200 },
                },
                additionalProperties: true,
                maxProperties: 20,
              },
            },
          },
        },
      },
    },
  },
};
