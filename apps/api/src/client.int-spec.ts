import { readFileSync } from 'node:fs';
import { get, IncomingHttpHeaders } from 'node:http';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createBhisClient, type BhisClient, type Building } from '@bhis/client';
import { ERROR_CODES } from '@bhis/envelope';
import { PrecompressedAssets } from '@bhis/web';
import { createTestDatabase, TestDatabase, testRedisPrefix } from '@bhis/testing';
import { seedCity, SEEDED_CITY } from './testing/seed-city';
import { createTestKey, startTestApi, TestApi } from './testing/test-api';

jest.setTimeout(30_000);

/** The raw bytes of a GET (fetch would decompress them). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

/** The typed client (generated from the OpenAPI document) against the real API: the document cannot lie. */
describe('typed client against the API', () => {
  let db: TestDatabase;
  let api: TestApi;
  let client: BhisClient;
  const [first, second] = SEEDED_CITY;

  beforeAll(async () => {
    db = await createTestDatabase();
    await seedCity(db.url);
    api = await startTestApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix() });
    const { key } = await createTestKey(db.url);
    client = createBhisClient(api.url, key);
  });

  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  it('looks up a building', async () => {
    const { data, error, response } = await client.GET('/buildings/{bbl}', { params: { path: { bbl: first.bbl } } });
    expect(error).toBeUndefined();
    expect(response.headers.get('x-ratelimit-limit')).toBe('6000');
    const building: Building = data!.data;
    expect(building.bbl).toBe(first.bbl);
    expect(building.scores?.total_score).toBe(first.score);
    expect(building.scores?.grade).toBe('F');
    expect(building.scores?.components.living_conditions.score).toBe(first.components[0]);
    expect(building.confidence?.dimensions.coverage).toBe(0.92);
    expect(data!._links.events).toBe(`${api.url}/api/v1/buildings/${first.bbl}/events`);
  });

  it('answers errors in the documented envelope', async () => {
    const { error, response } = await client.GET('/buildings/{bbl}', { params: { path: { bbl: '1234' } } });
    expect(response.status).toBe(400);
    expect(error?.error.code).toBe('invalid_bbl');
    expect(error?.error.doc_url).toBe(`${api.url}/api-docs.md#error-invalid-bbl`);
  });

  it('looks up a batch', async () => {
    const { data } = await client.POST('/buildings/batch', { body: { bbls: [first.bbl, '1000010001', 'nope'] } });
    expect(data!.data.summary).toEqual({ requested: 3, found: 1, not_found: 1, invalid: 1, received: 3, duplicates: [], not_found_bbls: ['1000010001'] });
    expect(data!.data.results.map((r) => r.status)).toEqual(['found', 'not_found', 'invalid']);
  });

  it('searches by address', async () => {
    const { data } = await client.GET('/buildings/search', { params: { query: { address: '125 w 45th st' } } });
    const buildings = data!.data.buildings;
    expect(buildings[0].bbl).toBe(second.bbl);
    expect(buildings[0].grade).toBe('B');
    expect(data!.pagination.limit).toBe(25);
  });

  it('lists events and the trajectory', async () => {
    const events = await client.GET('/buildings/{bbl}/events', { params: { path: { bbl: first.bbl }, query: { limit: 5 } } });
    expect(events.data!.data.events).toHaveLength(5);
    expect(events.data!.data.events[0].occurred_on).toBe('2026-11-15');
    expect(events.data!.pagination.has_more).toBe(true);

    const trajectory = await client.GET('/buildings/{bbl}/trajectory', { params: { path: { bbl: first.bbl } } });
    expect(trajectory.data!.data.points.map((p) => p.total_score)).toEqual(first.history.map((h) => h.score));
  });

  it('analyzes a portfolio', async () => {
    const { data } = await client.POST('/portfolio/analyze', { body: { bbls: SEEDED_CITY.map((b) => b.bbl) } });
    const analysis = data!.data;
    expect(analysis.summary.found).toBe(SEEDED_CITY.length);
    expect(analysis.worst_buildings[0].bbl).toBe(first.bbl);
  });

  it('lists the sources', async () => {
    const { data } = await client.GET('/sources');
    expect(data!.data.sources.length).toBe(25);
    expect(typeof data!.data.sources[0].key).toBe('string');
  });

  it('serves the health check and the document without a key', async () => {
    const anonymous = createBhisClient(api.url, 'unused');
    const health = await fetch(`${api.url}/api/v1/health`);
    expect(health.status).toBe(200);
    const document = await anonymous.GET('/openapi.json');
    expect(document.data?.openapi).toBe('3.1.0');
  });
});

describe('reference files', () => {
  let db: TestDatabase;
  let api: TestApi;

  beforeAll(async () => {
    db = await createTestDatabase();
    api = await startTestApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix() });
  });

  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  const get = async (path: string) => {
    const res = await fetch(`${api.url}${path}`);
    return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
  };

  it('/llms.txt follows the llms.txt format and links the Markdown files', async () => {
    const { status, type, text } = await get('/llms.txt');
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain/);
    const lines = text.split('\n');
    expect(lines[0]).toBe('# Building Health Intelligence Service');
    expect(lines.find((l) => l.startsWith('>'))).toBeDefined();
    expect(text).toContain('## Optional');
    expect(text).toContain(`- [API reference (Markdown)](${api.url}/api-docs.md): `);
    expect(text).toContain(`(${api.url}/methodology.md)`);
    for (const line of lines.filter((l) => l.startsWith('- '))) expect(line).toMatch(/^- \[[^\]]+\]\(http[^)]+\): .+/);
    // every operation of the OpenAPI document, and every webhook, is listed
    const document = (await (await fetch(`${api.url}/api/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>>; webhooks: Record<string, unknown> };
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of Object.keys(item).filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))) {
        expect(text).toContain(`- [${method.toUpperCase()} ${path}](${api.url}/api/v1${path === '/' ? '' : path}): `);
      }
    }
    for (const name of Object.keys(document.webhooks)) expect(text).toContain(`- [${name}](${api.url}/api-docs.md#webhooks): `);
  });

  it('/api-docs.md documents every endpoint with curl and has the anchor of every error code', async () => {
    const { status, type, text } = await get('/api-docs.md');
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/markdown/);
    for (const heading of ['GET /buildings/{bbl}', 'POST /buildings/batch', 'GET /buildings/search', 'POST /portfolio/analyze', 'GET /sources']) {
      expect(text).toContain(`### ${heading}`);
    }
    expect(text).toContain(`curl -s '${api.url}/api/v1/buildings/1000010001'`);
    for (const code of Object.keys(ERROR_CODES)) expect(text).toContain(`<a id="error-${code.replace(/_/g, '-')}"></a>`);
    // every operation of the document has its section, and every webhook its body
    const document = (await (await fetch(`${api.url}/api/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of Object.keys(item).filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))) expect(text).toContain(`### ${method.toUpperCase()} ${path}\n`);
    }
    expect(text).toContain('## Webhooks');
    expect(text).toContain('### `building.grade_changed`');
    expect(text).toContain('"type": "building.grade_changed"');
  });

  it('/methodology.md is docs/methodology.md', async () => {
    const { status, text } = await get('/methodology.md');
    expect(status).toBe(200);
    expect(text).toContain('# Methodology: distress score');
  });

  it('pages carry a self-only Content-Security-Policy', async () => {
    // this database holds no building: its report is the 404 page, with the same policy
    for (const [path, status] of [['/', 200], ['/docs', 200], ['/methodology', 200], ['/buildings/1010150001', 404]] as const) {
      const res = await fetch(`${api.url}${path}`);
      expect([path, res.status]).toEqual([path, status]);
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    }
    const home = await get('/');
    expect(home.text).toContain('<script type="application/json" id="bhis-config">{}</script>');
    expect(home.text).not.toMatch(/sk_(live|demo)_[A-Za-z0-9_-]{20,}/);
    expect((await fetch(`${api.url}/buildings/0000000000`)).status).toBe(404);
    expect((await fetch(`${api.url}/assets/web/nope.js`)).status).toBe(404);
    expect((await fetch(`${api.url}/assets/swagger-ui/../../package.json`)).status).toBe(404);
  });

  it('serves the Swagger UI bundle gzipped from bytes compressed once, with one ETag, and as it is on disk to a client without gzip', async () => {
    const onDisk = readFileSync(join(dirname(require.resolve('swagger-ui-dist/package.json')), 'swagger-ui-bundle.js'));
    const url = `${api.url}/assets/swagger-ui/swagger-ui-bundle.js`;
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await rawGet(url, { 'Accept-Encoding': 'gzip, deflate, br' }));
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.headers['vary']).toMatch(/Accept-Encoding/i);
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      expect(gunzipSync(res.body).equals(onDisk)).toBe(true);
      expect(res.headers.etag).toBe(answers[0]?.headers.etag);
    }
    const plain = await rawGet(url, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(onDisk)).toBe(true);
    const notModified = await rawGet(url, { 'If-None-Match': String(answers[0]?.headers.etag), 'Accept-Encoding': 'gzip' });
    expect([notModified.status, notModified.body.length]).toEqual([304, 0]);
    await rawGet(`${api.url}/assets/swagger-ui/swagger-ui.css`, { 'Accept-Encoding': 'gzip' });
    // one compression per file for the life of the process
    expect(api.app.get(PrecompressedAssets).compressions).toBe(2);
  });
});
