import type { JsonObject } from './json';

/*
 * The events a monitor's webhook URL receives (OpenAPI 3.1 `webhooks`): the payloads written by
 * libs/webhooks/src/outbox.ts, signed as libs/webhooks/src/signing.ts signs them (Standard Webhooks,
 * https://www.standardwebhooks.com/: `webhook-id`, `webhook-timestamp`, `webhook-signature`).
 */

const SIGNATURE_HEADERS: JsonObject[] = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The delivery\'s id, the same on every retry of it: deduplicate on it.',
    schema: { type: 'string', maxLength: 100 },
    example: 'msg_2Q9a1kZ0m5cW3x7fT8bV4n',
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Seconds since the Unix epoch when this attempt was signed; refuse one far from your clock (replays).',
    schema: { type: 'string', pattern: '^\\d{1,12}$' },
    example: '1764669600',
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` signatures with the monitor\'s signing secret (`whsec_...`, base64 after the prefix). During the overlap of a secret rotation there is one per secret: accept the request when any of them verifies. `@bhis/client` exports a verifier.',
    schema: { type: 'string', maxLength: 1000 },
    example: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
  },
];

const GRADE = { type: 'string', enum: ['A', 'B', 'C', 'D', 'F'] };
const GRADE_POINT = {
  type: 'object',
  required: ['grade', 'total_score'],
  properties: { grade: GRADE, total_score: { type: 'number', minimum: 0, maximum: 100 } },
};

export const WEBHOOK_SCHEMAS: JsonObject = {
  GradeChangedEvent: {
    type: 'object',
    required: ['type', 'timestamp', 'data'],
    properties: {
      type: { const: 'building.grade_changed' },
      timestamp: { type: 'string', format: 'date-time', description: 'When the event was written (UTC).' },
      data: {
        type: 'object',
        required: ['monitor_id', 'bbl', 'previous', 'current', 'as_of', 'scorer_id'],
        properties: {
          monitor_id: { type: 'string', format: 'uuid' },
          bbl: { type: 'string', pattern: '^[1-5]\\d{9}$' },
          address: { type: ['string', 'null'] },
          previous: { ...GRADE_POINT, description: 'The grade and score the monitor was last told of (the net change since then).' },
          current: GRADE_POINT,
          as_of: { type: 'string', format: 'date', description: 'The data date of the new score.' },
          scorer_id: { type: 'string', description: 'The model that scored it, e.g. `distress_v10_2`.' },
        },
      },
    },
  },
  MonitorTestEvent: {
    type: 'object',
    required: ['type', 'timestamp', 'data'],
    properties: {
      type: { const: 'monitor.test' },
      timestamp: { type: 'string', format: 'date-time' },
      data: {
        type: 'object',
        required: ['monitor_id', 'message'],
        properties: { monitor_id: { type: 'string', format: 'uuid' }, message: { type: 'string' } },
      },
    },
  },
};

const RECEIVER_RESPONSES: JsonObject = {
  '2XX': { description: 'Received: any 2xx ends the delivery.' },
  '410': { description: 'Gone: the monitor is disabled and nothing more is sent to it.' },
  default: { description: 'Anything else (or no answer within 10 s) is retried with backoff over at least 24 hours; every attempt is recorded.' },
};

function webhook(summary: string, description: string, schema: string, example: JsonObject): JsonObject {
  return {
    post: {
      summary,
      description,
      operationId: `webhook_${schema.replace(/Event$/, '').replace(/[A-Z]/g, (c, i: number) => `${i > 0 ? '_' : ''}${c.toLowerCase()}`)}`,
      tags: ['Portfolio monitors'],
      security: [],
      parameters: SIGNATURE_HEADERS,
      requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` }, example } } },
      responses: RECEIVER_RESPONSES,
    },
  };
}

export const WEBHOOKS: JsonObject = {
  'building.grade_changed': webhook(
    'A monitored building changed grade',
    'Sent to a monitor\'s `webhook_url` when a scoring run moves one of its buildings into or out of the monitor\'s grades (any grade change without a grade list). A change caused only by a stale source or by a new scorer version is not sent.',
    'GradeChangedEvent',
    {
      type: 'building.grade_changed',
      timestamp: '2026-12-02T06:10:04.000Z',
      data: {
        monitor_id: '7d0b3f8e-2c4a-4e1b-9f55-0c6a2d9e8b17',
        bbl: '1008350041',
        address: '347 LEXINGTON AVENUE',
        previous: { grade: 'B', total_score: 31.4 },
        current: { grade: 'C', total_score: 44.9 },
        as_of: '2026-12-01',
        scorer_id: 'distress_v10_2',
      },
    },
  ),
  'monitor.test': webhook(
    'A test event',
    'Sent when a test delivery is asked for: checks that the endpoint answers and verifies signatures.',
    'MonitorTestEvent',
    {
      type: 'monitor.test',
      timestamp: '2026-12-02T06:10:04.000Z',
      data: { monitor_id: '7d0b3f8e-2c4a-4e1b-9f55-0c6a2d9e8b17', message: 'Test event: the webhook endpoint and signature verification work.' },
    },
  ),
};
