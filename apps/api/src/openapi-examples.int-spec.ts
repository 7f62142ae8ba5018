import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { SCOPES } from '@bhis/domain';
import { createTestDatabase, TestDatabase, testRedisPrefix } from '@bhis/testing';
import { EXAMPLE_BASE_URL, exampleOf, JsonObject, JsonValue, OPENAPI_DOCUMENT, RESPONSE_EXAMPLES, ResponseExamples, responseExamplesModule, shapeOf } from '@bhis/web';
import { seedCity, SEEDED_CITY } from './testing/seed-city';
import { createTestKey, startTestApi, TestApi } from './testing/test-api';

const ROOT = path.resolve(__dirname, '../../..');
const GENERATED = path.join(ROOT, 'libs/web/src/generated/response-examples.ts');
const FIXTURE = path.resolve(ROOT, '../shared/fixtures/nyc-open-data/hpd_litigations.csv');
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

interface Answer {
  status: number;
  body: JsonValue;
}

/**
 * The example of every success response of the OpenAPI document is an answer of the API itself, over
 * the seeded city (apps/api/src/testing/seed-city.ts): `npm run openapi` captures them into
 * libs/web/src/generated/response-examples.ts; otherwise this checks that the committed examples have
 * the shape the API answers with today, and that no documented success response lacks one.
 */
describe('the OpenAPI examples are the API\'s answers', () => {
  let db: TestDatabase;
  let api: TestApi;
  let key: string;
  let dataDir: string;
  const answers = new Map<string, Answer>();

  beforeAll(async () => {
    db = await createTestDatabase();
    await seedCity(db.url);
    const client = new Client({ connectionString: db.url });
    await client.connect();
    try {
      const links = [{ kind: 'company', key: 'WEST 45 REALTY', shown: 'WEST 45 REALTY LLC', registration_ids: [331931, 331932] }];
      await client.query(`INSERT INTO owner_portfolios (id, buildings, registrations, links, caution) VALUES ('pf_331931', 2, 2, $1, NULL)`, [JSON.stringify(links)]);
      await client.query(`INSERT INTO building_portfolios (bbl, portfolio_id) SELECT unnest($1::text[]), 'pf_331931'`, [SEEDED_CITY.slice(0, 2).map((b) => b.bbl)]);
      await client.query(`INSERT INTO rejected_rows (run_id, source, line_number, reason, raw) SELECT id, source, 7, 'missing_record_key', ',,,MANHATTAN,,' FROM ingest_runs LIMIT 0`);
    } finally {
      await client.end();
    }
    dataDir = mkdtempSync(path.join(tmpdir(), 'bhis-examples-'));
    copyFileSync(FIXTURE, path.join(dataDir, 'hpd_litigations.csv'));
    api = await startTestApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix(), DATA_DIR: dataDir, WEBHOOK_ALLOW_LOOPBACK: 'true' });
    key = (await createTestKey(db.url, { scopes: [...SCOPES] })).key;

    const call = async (operationId: string, method: string, route: string, body?: unknown): Promise<Answer> => {
      const res = await fetch(`${api.url}/api/v1${route}`, {
        method,
        headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      const answer = { status: res.status, body: (res.headers.get('content-type') ?? '').startsWith('application/json') ? (JSON.parse(text) as JsonValue) : text };
      answers.set(`${operationId} ${answer.status}`, answer);
      return answer;
    };
    const [first, second] = SEEDED_CITY;
    const bbls = SEEDED_CITY.map((b) => b.bbl);
    await call('platform_index', 'GET', '');
    await call('platform_health', 'GET', '/health');
    const document = await call('platform_openapi', 'GET', '/openapi.json');
    // the document's example is its opening and its first path (without that path's own examples), not itself
    const opening = document.body as JsonObject;
    const withoutExamples = (value: JsonValue): JsonValue =>
      Array.isArray(value)
        ? value.map(withoutExamples)
        : value !== null && typeof value === 'object'
          ? Object.fromEntries(Object.entries(value).filter(([name]) => name !== 'example' && name !== 'examples').map(([name, item]) => [name, withoutExamples(item)]))
          : value;
    const [firstPath] = Object.entries(opening['paths'] as JsonObject).map(([name, item]) => [name, withoutExamples(item)] as const);
    answers.set('platform_openapi 200', { status: document.status, body: { openapi: opening['openapi'], info: opening['info'], paths: Object.fromEntries([firstPath]) } });
    await call('buildings_lookup', 'GET', `/buildings/${first.bbl}`);
    await call('buildings_batch', 'POST', '/buildings/batch', { bbls: [first.bbl, second.bbl] });
    await call('search_find', 'GET', '/buildings/search?address=123%20west%2045&limit=2');
    const events = await call('events_list', 'GET', `/buildings/${first.bbl}/events?limit=2`);
    const [event] = ((events.body as JsonObject)['data'] as JsonObject)['events'] as JsonObject[];
    await call('events_one', 'GET', `/buildings/${first.bbl}/events/${String(event['id'])}`);
    await call('trajectory_points', 'GET', `/buildings/${first.bbl}/trajectory?limit=2`);
    await call('portfolios_ofBuilding', 'GET', `/buildings/${first.bbl}/portfolio?limit=2`);
    await call('portfolios_byId', 'GET', '/portfolios/pf_331931?limit=2');
    await call('analyze_analyze', 'POST', '/portfolio/analyze', { bbls });
    await call('export_export', 'POST', '/export/csv', { bbls: [first.bbl, second.bbl] });
    await call('sources_list', 'GET', '/sources');
    const created = await call('monitors_create', 'POST', '/portfolio/monitor', { name: 'Midtown watch', bbls, webhook_url: 'http://127.0.0.1:9/hooks/bhis', grades: ['D', 'F'] });
    const monitorId = String((((created.body as JsonObject)['data'] as JsonObject)['monitor'] as JsonObject)['id']);
    await call('monitors_list', 'GET', '/portfolio/monitor');
    await call('monitors_get', 'GET', `/portfolio/monitor/${monitorId}`);
    await call('monitors_update', 'PATCH', `/portfolio/monitor/${monitorId}`, { name: 'Midtown watch, any grade change', grades: null });
    await call('monitors_rotateSecret', 'POST', `/portfolio/monitor/${monitorId}/rotate-secret`, { overlap_seconds: 3600 });
    await call('monitors_test', 'POST', `/portfolio/monitor/${monitorId}/test`);
    await call('monitors_deliveries', 'GET', `/portfolio/monitor/${monitorId}/deliveries`);
    await call('monitors_remove', 'DELETE', `/portfolio/monitor/${monitorId}`);
    const queued = await call('admin_triggerIngest', 'POST', '/admin/ingest', { source: 'hpd_litigations', file: 'hpd_litigations.csv' });
    const runId = String(((queued.body as JsonObject)['data'] as JsonObject)['run_id']);
    await call('admin_listIngestRuns', 'GET', '/admin/ingest?limit=2');
    await call('admin_ingestRun', 'GET', `/admin/ingest/${runId}`);
    const rejected = new Client({ connectionString: db.url });
    await rejected.connect();
    await rejected
      .query(`INSERT INTO rejected_rows (run_id, source, line_number, reason, raw) VALUES ($1, 'hpd_litigations', 7, 'missing_record_key', '412345,,1,,WEST 45 STREET,10036,1015,1')`, [runId])
      .finally(() => rejected.end());
    await call('admin_rejected', 'GET', `/admin/ingest/${runId}/rejected`);
    await call('admin_cancelIngestRun', 'POST', `/admin/ingest/${runId}/cancel`);
    // a run a worker has taken is asked to stop (202)
    const running = await call('admin_triggerIngest', 'POST', '/admin/ingest', { source: 'hpd_litigations', file: 'hpd_litigations.csv', force: true });
    const runningId = String(((running.body as JsonObject)['data'] as JsonObject)['run_id']);
    const taken = new Client({ connectionString: db.url });
    await taken.connect();
    await taken.query(`UPDATE ingest_runs SET status = 'running', started_at = now() WHERE id = $1`, [runningId]).finally(() => taken.end());
    await call('admin_cancelIngestRun', 'POST', `/admin/ingest/${runningId}/cancel`);
    const scoring = await call('admin_triggerScoring', 'POST', '/admin/score', { bbls: [first.bbl] });
    await call('admin_scoringRun', 'GET', `/admin/score/${String(((scoring.body as JsonObject)['data'] as JsonObject)['run_id'])}`);
  }, 120_000);

  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  /** Every success response the document declares with a body: operation id -> statuses. */
  const documented = (): Map<string, string[]> => {
    const out = new Map<string, string[]>();
    for (const item of Object.values(OPENAPI_DOCUMENT['paths'] as JsonObject)) {
      for (const method of METHODS) {
        const operation = (item as JsonObject)[method] as JsonObject | undefined;
        if (!operation) continue;
        const statuses = Object.entries(operation['responses'] as JsonObject)
          .filter(([status, response]) => Number(status) < 300 && 'content' in (response as JsonObject))
          .map(([status]) => status);
        out.set(String(operation['operationId']), statuses);
      }
    }
    return out;
  };

  it('calls every documented operation and keeps its answer as the example', () => {
    const captured: ResponseExamples = {};
    for (const [call, answer] of answers) {
      const operationId = call.split(' ')[0];
      expect([operationId, answer.status]).toEqual([operationId, expect.any(Number)]);
      expect([operationId, answer.status < 300, answer.status < 300 ? '' : JSON.stringify(answer.body)]).toEqual([operationId, true, '']);
      (captured[operationId] ??= {})[String(answer.status)] = exampleOf(answer.body, { [api.url]: EXAMPLE_BASE_URL, [dataDir]: '/data' });
    }
    if (process.env['UPDATE_OPENAPI'] === '1') {
      writeFileSync(GENERATED, responseExamplesModule(captured));
      return;
    }
    const missing = [...documented()].flatMap(([operationId, statuses]) => statuses.filter((status) => !answers.has(`${operationId} ${status}`)).map((status) => `${operationId} ${status}`));
    expect(missing).toEqual([]);
    for (const [operationId, statuses] of captured ? Object.entries(captured) : []) {
      for (const [status, example] of Object.entries(statuses)) {
        const committed = RESPONSE_EXAMPLES[operationId]?.[status];
        if (committed === undefined) throw new Error(`${operationId} ${status} has no committed example: run npm run openapi`);
        // the committed example has the shape of today's answer (values change; fields do not without a new capture)
        expect([operationId, status, shapeOf(committed)]).toEqual([operationId, status, shapeOf(example)]);
      }
    }
  });

  it('the document shows an example on every success response with a body', () => {
    if (process.env['UPDATE_OPENAPI'] === '1') return; // the document is regenerated after this capture
    const without: string[] = [];
    for (const [operationId, statuses] of documented()) {
      for (const status of statuses) if (RESPONSE_EXAMPLES[operationId]?.[status] === undefined) without.push(`${operationId} ${status}`);
    }
    expect(without).toEqual([]);
  });
});
