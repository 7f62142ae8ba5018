import { get as httpGet } from 'node:http';
import { Client } from 'pg';
import { ChangeListener } from '@bhis/db';
import { ANNOUNCED_WITHIN_MS, createTestDatabase, poll, TestDatabase, testRedisPrefix } from '@bhis/testing';
import { auth, call, CallResult, data, expectError, postJson } from './testing/http';
import { seedBuildings, rescore } from './testing/seed';
import { createReadTestKey, ReadTestApi, startReadApi } from './testing/test-api';

/** A GET with node:http, which (unlike fetch) sends no Accept-Encoding header. */
function callWithoutAcceptEncoding(url: string, init: RequestInit): Promise<CallResult> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers: init.headers as Record<string, string> }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
        resolve({ status: res.statusCode ?? 0, headers, body: JSON.parse(text) as Record<string, unknown>, text });
      });
    }).on('error', reject);
  });
}

describe('building lookup and batch (real Postgres and Redis)', () => {
  let db: TestDatabase;
  let api: ReadTestApi;
  let client: Client;
  let key: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    client = new Client({ connectionString: db.url });
    await client.connect();
    await seedBuildings(client, [
      { bbl: '1010150001', address: '123 West 45th Street', zipcode: '10036', owner: 'WEST 45 REALTY LLC', score: 71 },
      { bbl: '3012340056', address: '45 Bedford Avenue', zipcode: '11211', score: 12 },
      { bbl: '4099990001', address: '104-12 101 Avenue', zipcode: '11416' }, // not scored yet
    ]);
    api = await startReadApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix() });
    key = await createReadTestKey(db.url);
  });

  afterAll(async () => {
    await api?.close();
    await client?.end();
    await db?.drop();
  });

  const get = (path: string, headers: Record<string, string> = {}) => call(`${api.url}${path}`, auth(key, headers));

  describe('GET /buildings/{bbl}', () => {
    it('serves the stored document in the envelope with absolute links and null pagination', async () => {
      const res = await get('/api/v1/buildings/1010150001');
      const building = data<Record<string, unknown>>(res);
      expect(building).toEqual(
        expect.objectContaining({ bbl: '1010150001', address: '123 WEST 45TH STREET', borough: 1, borough_name: 'Manhattan', zipcode: '10036' }),
      );
      expect(building.scores).toEqual(expect.objectContaining({ total_score: 71, grade: 'F', label: 'Distressed', scorer_id: 'distress_v10_2' }));
      expect(Object.keys((building.scores as { components: object }).components)).toHaveLength(7);
      expect(building.counts).toEqual(expect.objectContaining({ total_events: 82 }));
      expect(building.confidence).toEqual(expect.objectContaining({ tier: 'high' }));
      expect(building.explanation).toBeUndefined();
      expect(res.body.pagination).toBeNull();
      expect(res.body._links).toEqual({
        self: `${api.url}/api/v1/buildings/1010150001`,
        events: `${api.url}/api/v1/buildings/1010150001/events`,
        trajectory: `${api.url}/api/v1/buildings/1010150001/trajectory`,
      });
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('cache-control')).toBe('private, max-age=300');
      expect(res.headers.get('x-ratelimit-remaining')).not.toBeNull();
      expect(Object.keys(res.body)).toEqual(['data', 'meta', 'pagination', '_links']);
    });

    it('adds the explanation with include=explanation and refuses other include values', async () => {
      const building = data<{ explanation: { components: Record<string, unknown[]>; adjustments: unknown[] } }>(
        await get('/api/v1/buildings/1010150001?include=explanation'),
      );
      expect(Object.keys(building.explanation.components)).toHaveLength(7);
      expect(building.explanation.adjustments).toEqual([]);
      expectError(await get('/api/v1/buildings/1010150001?include=history'), 400, 'invalid_request', /include.*history/);
    });

    it('serves a building not scored yet with scores, counts and confidence null', async () => {
      const building = data<Record<string, unknown>>(await get('/api/v1/buildings/4099990001?include=explanation'));
      expect(building).toEqual({
        bbl: '4099990001',
        address: '104-12 101 AVENUE',
        city: 'QUEENS',
        zipcode: '11416',
        borough: 4,
        borough_name: 'Queens',
        residential_units: 12,
        total_units: 13,
        year_built: 1931,
        building_class: 'C1',
        owner_name: null,
        latitude: 40.75,
        longitude: -73.98,
        scores: null,
        counts: null,
        confidence: null,
        as_of: null,
        scored_at: null,
        data_as_of: null,
        explanation: null,
      });
    });

    it('says the data date the score reflects, when it was scored, and the latest refresh of the sources', async () => {
      const { rows } = await client.query<{ scored_at: Date }>(`SELECT updated_at AS scored_at FROM building_scores WHERE bbl = '3012340056'`);
      const dates = (building: Record<string, unknown>) => [building.as_of, building.scored_at, building.data_as_of];
      const building = data<Record<string, unknown>>(await get('/api/v1/buildings/3012340056'));
      expect(dates(building)).toEqual(['2026-11-20', rows[0]?.scored_at.toISOString(), null]);
      // v1's fields keep their place: the dates follow them
      expect(Object.keys(building).slice(-3)).toEqual(['as_of', 'scored_at', 'data_as_of']);
      expect(Object.keys(building).slice(0, 3)).toEqual(['bbl', 'address', 'city']);

      // a refresh of a source is announced: the document kept in memory is not served with the earlier date
      await client.query(`INSERT INTO sources (key, name, agency, cadence, last_refreshed_at) VALUES
                            ('hpd_violations', 'HPD violations', 'HPD', 'daily', '2026-11-19T06:00:00Z'),
                            ('dob_violations', 'DOB violations', 'DOB', 'daily', '2026-11-18T06:00:00Z')`);
      try {
        const refreshed = await poll('the announced refresh', async () => {
          const res = data<Record<string, unknown>>(await get('/api/v1/buildings/3012340056'));
          return res.data_as_of !== null ? res : null;
        }, ANNOUNCED_WITHIN_MS, 10);
        expect(refreshed.data_as_of).toBe('2026-11-19T06:00:00.000Z');
        const explained = data<Record<string, unknown>>(await get('/api/v1/buildings/3012340056?include=explanation'));
        expect(dates(explained)).toEqual(dates(refreshed));
        const batched = data<{ results: { building: Record<string, unknown> }[] }>(await call(`${api.url}/api/v1/buildings/batch`, postJson(key, { bbls: ['3012340056'] })));
        expect(batched.results[0]?.building).toEqual(refreshed);
      } finally {
        await client.query('DELETE FROM sources');
      }
    });

    it('answers 400 invalid_bbl quoting the input, 404 building_not_found naming the BBL', async () => {
      for (const bad of ['12345', '6000010001', '1000000001', '10000100011', 'abcdefghij', ' 1010150001']) {
        expectError(await get(`/api/v1/buildings/${encodeURIComponent(bad)}`), 400, 'invalid_bbl', new RegExp(bad.trim()));
      }
      const long = '9'.repeat(80);
      const res = await get(`/api/v1/buildings/${long}`);
      expectError(res, 400, 'invalid_bbl');
      expect((res.body.error as { message: string }).message).toContain(`"${'9'.repeat(40)}..."`);
      expectError(await get('/api/v1/buildings/2000010001'), 404, 'building_not_found', /2000010001/);
    });

    it('refuses unknown and repeated query parameters', async () => {
      expectError(await get('/api/v1/buildings/1010150001?foo=1'), 400, 'invalid_request', /"foo"/);
      expectError(await get('/api/v1/buildings/1010150001?include=explanation&include=explanation'), 400, 'invalid_request', /include/);
    });

    it('answers 304 to If-None-Match with the current ETag, with the rate-limit headers, and a new ETag after a rescore', async () => {
      const first = await get('/api/v1/buildings/1010150001');
      const etag = first.headers.get('etag') as string;
      expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
      const again = await get('/api/v1/buildings/1010150001');
      expect(again.headers.get('etag')).toBe(etag); // meta differs, the data version does not
      const notModified = await get('/api/v1/buildings/1010150001', { 'If-None-Match': etag });
      expect(notModified.status).toBe(304);
      expect(notModified.text).toBe('');
      expect(notModified.headers.get('x-ratelimit-limit')).toBe('6000');
      expect(notModified.headers.get('x-ratelimit-remaining')).not.toBeNull();
      expect(notModified.headers.get('etag')).toBe(etag);
      expect((await get('/api/v1/buildings/1010150001', { 'If-None-Match': `"other", ${etag}` })).status).toBe(304);
      expect((await get('/api/v1/buildings/1010150001?include=explanation', { 'If-None-Match': etag })).status).toBe(200);
      await rescore(client, '1010150001', 72);
      // the change reaches the API with Postgres' notification, moments after the commit
      const changed = await poll('the rescore', async () => {
        const res = await get('/api/v1/buildings/1010150001', { 'If-None-Match': etag });
        return res.status === 200 ? res : null;
      }, ANNOUNCED_WITHIN_MS, 10);
      expect(changed.headers.get('etag')).not.toBe(etag);
      await rescore(client, '1010150001', 71);
    });

    it('serves documents from memory until Postgres announces a change of the scores (lookup and batch)', async () => {
      const listener = api.app.get(ChangeListener);
      await poll('the notification listener', async () => listener.isLive() || null, 10_000, 20);
      const score = async () => {
        const lookup = data<{ scores: { total_score: number } }>(await get('/api/v1/buildings/1010150001')).scores.total_score;
        const batch = data<{ results: { building: { scores: { total_score: number } } }[] }>(
          await call(`${api.url}/api/v1/buildings/batch`, postJson(key, { bbls: ['1010150001'] })),
        ).results[0]?.building.scores.total_score;
        return [lookup, batch];
      };
      // announced changes reach the API moments after the commit (its own LISTEN connection)
      const scoreOnceAnnounced = (expected: number[]) =>
        poll('the announced rescore', async () => {
          const seen = await score();
          return seen.every((value, i) => value === expected[i]) ? seen : null;
        }, ANNOUNCED_WITHIN_MS, 10).catch(() => score());
      // the test before ends with a rescore: its announcement may still be on its way
      expect(await scoreOnceAnnounced([71, 71])).toEqual([71, 71]);
      try {
        // a change Postgres does not announce shows that the documents come from memory
        await client.query('ALTER TABLE building_scores DISABLE TRIGGER building_scores_documents_changed');
        await rescore(client, '1010150001', 73);
        expect(await score()).toEqual([71, 71]);
      } finally {
        await client.query('ALTER TABLE building_scores ENABLE TRIGGER building_scores_documents_changed');
      }
      await rescore(client, '1010150001', 74);
      expect(await scoreOnceAnnounced([74, 74])).toEqual([74, 74]);
      await rescore(client, '1010150001', 71);
      expect(await scoreOnceAnnounced([71, 71])).toEqual([71, 71]);
    });

    it('answers a lookup of a document in memory exactly as one read from the database', async () => {
      const path = '/api/v1/buildings/1010150001';
      // the same links (and so the same ETag) from an API that keeps no document in memory
      const viaController = await startReadApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix(), DOCUMENT_CACHE_MB: '0', PUBLIC_BASE_URL: api.url });
      try {
        await get(path); // in memory from here on
        const comparable = (res: CallResult) => ({
          status: res.status,
          headers: Object.fromEntries([...(res.headers as unknown as Iterable<[string, string]>)].filter(([name]) => !['date', 'x-request-id', 'x-ratelimit-remaining', 'x-ratelimit-reset'].includes(name))),
          body: { ...res.body, meta: Object.keys(res.body.meta as object) },
        });
        // fetch asks for gzip when told nothing; node:http sends no Accept-Encoding at all
        for (const [encoding, send] of [['gzip, deflate', call], ['identity', call], [undefined, callWithoutAcceptEncoding]] as const) {
          const headers: Record<string, string> = encoding ? { 'Accept-Encoding': encoding } : {};
          const fromMemory = await send(`${api.url}${path}`, auth(key, headers));
          const fromDatabase = await send(`${viaController.url}${path}`, auth(key, headers));
          expect(comparable(fromMemory)).toEqual(comparable(fromDatabase));
          expect(fromMemory.headers.get('content-encoding')).toBe(encoding?.startsWith('gzip') ? 'gzip' : null);
          expect((fromMemory.body.meta as { request_id: string }).request_id).toBe(fromMemory.headers.get('x-request-id'));
        }

        const etag = (await get(path)).headers.get('etag') ?? '';
        const notModified = await get(path, { 'If-None-Match': etag });
        expect(notModified.status).toBe(304);
        expect(notModified.headers.get('x-ratelimit-remaining')).not.toBeNull();

        // another scope, a query, an unknown building
        const eventsOnly = await createReadTestKey(db.url, { scopes: ['events:read'] });
        expectError(await call(`${api.url}${path}`, auth(eventsOnly)), 403, 'insufficient_scope');
        expectError(await get(`${path}?include=explanation,x`), 400, 'invalid_request');
        expectError(await get('/api/v1/buildings/1999990001'), 404, 'building_not_found');
      } finally {
        await viaController.close();
      }
    });

    it('counts lookups answered from memory under the route, like the others', async () => {
      const metricsKey = await createReadTestKey(db.url, { scopes: ['metrics:read'] });
      const lookups = async () => {
        const text = (await call(`${api.url}/metrics`, auth(metricsKey))).text;
        const line = text.split('\n').find((l) => l.startsWith('http_requests_total{') && l.includes('route="/api/v1/buildings/:bbl"') && l.includes('status="200"'));
        return Number(line?.split(' ').pop() ?? 0);
      };
      const before = await lookups();
      for (let i = 0; i < 5; i++) expect((await get('/api/v1/buildings/1010150001')).status).toBe(200);
      expect(await lookups()).toBe(before + 5);
    });

    it('needs the buildings:read scope', async () => {
      const eventsOnly = await createReadTestKey(db.url, { scopes: ['events:read'] });
      expectError(await call(`${api.url}/api/v1/buildings/1010150001`, auth(eventsOnly)), 403, 'insufficient_scope', /buildings:read/);
      expectError(await call(`${api.url}/api/v1/buildings/1010150001`), 401, 'missing_api_key');
    });

    it('answers GET on the batch path with 405', async () => {
      const res = await get('/api/v1/buildings/batch');
      expectError(res, 405, 'method_not_allowed');
      expect(res.headers.get('allow')).toBe('POST');
    });
  });

  describe('POST /buildings/batch', () => {
    const batch = (body: unknown, headers: Record<string, string> = {}) => call(`${api.url}/api/v1/buildings/batch`, postJson(key, body, headers));

    it('answers each distinct entry in request order with found, not_found or invalid', async () => {
      const res = await batch({ bbls: ['3012340056', 'nope', '2000010001', '1010150001', '3012340056', '4099990001', ''] });
      const body = data<{ results: { bbl: string; status: string; building: Record<string, unknown> | null }[]; summary: Record<string, number> }>(res);
      expect(body.results.map((r) => [r.bbl, r.status])).toEqual([
        ['3012340056', 'found'],
        ['nope', 'invalid'],
        ['2000010001', 'not_found'],
        ['1010150001', 'found'],
        ['4099990001', 'found'],
        ['', 'invalid'],
      ]);
      expect(body.summary).toEqual({ requested: 6, found: 3, not_found: 1, invalid: 2, received: 7, duplicates: ['3012340056'], not_found_bbls: ['2000010001'] });
      // v1's counts keep their place
      expect(Object.keys(body.summary).slice(0, 4)).toEqual(['requested', 'found', 'not_found', 'invalid']);
      const single = data<Record<string, unknown>>(await get('/api/v1/buildings/3012340056'));
      expect(body.results[0].building).toEqual(single);
      expect(body.results[1].building).toBeNull();
      expect(body.results[4].building).toEqual(expect.objectContaining({ scores: null }));
      expect(res.headers.get('x-ratelimit-cost')).toBe('1');
      expect(res.headers.get('cache-control')).toBe('no-store');
    });

    it('takes 500 BBLs (cost 10) and refuses 501 with too_many_bbls stating the limit and the count', async () => {
      const five = Array.from({ length: 500 }, (_, i) => `1${String(i + 1).padStart(5, '0')}0001`);
      const ok = await batch({ bbls: five });
      expect(data<{ summary: Record<string, unknown> }>(ok).summary).toEqual({ requested: 500, found: 0, not_found: 500, invalid: 0, received: 500, duplicates: [], not_found_bbls: five });
      const repeated = data<{ summary: Record<string, unknown>; results: unknown[] }>(await batch({ bbls: ['1010150001', '', '1010150001', '', '1010150001'] }));
      expect(repeated.summary).toEqual(expect.objectContaining({ requested: 2, received: 5, duplicates: ['1010150001', ''] }));
      expect(repeated.results).toHaveLength(2);
      expect(ok.headers.get('x-ratelimit-cost')).toBe('10');
      expectError(await batch({ bbls: [...five, '1010150001'] }), 400, 'too_many_bbls', /500.*501/);
    });

    it('refuses bodies that are not {"bbls": [strings]} with invalid_request', async () => {
      expectError(await batch({ bbls: [] }), 400, 'invalid_request', /at least one/);
      expectError(await batch({ bbls: '1010150001' }), 400, 'invalid_request', /array/);
      expectError(await batch({ bbls: ['1010150001', 1010150001] }), 400, 'invalid_request', /bbls\[1\]/);
      expectError(await batch({ bbls: [null] }), 400, 'invalid_request', /bbls\[0\]/);
      expectError(await batch({}), 400, 'invalid_request', /bbls/);
      expectError(await batch(['1010150001']), 400, 'invalid_request', /object/);
      expectError(await batch({ bbls: ['1010150001'], extra: true }), 400, 'invalid_request', /"extra"/);
      expectError(await batch('{"bbls": ['), 400, 'invalid_request', /JSON/);
      expectError(await batch('null'), 400, 'invalid_request');
      expectError(
        await call(`${api.url}/api/v1/buildings/batch`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'text/plain' }, body: 'x' }),
        400,
        'invalid_request',
        /Content-Type/,
      );
      expectError(await call(`${api.url}/api/v1/buildings/batch`, { method: 'POST', headers: { Authorization: `Bearer ${key}` } }), 400, 'invalid_request');
      expectError(await call(`${api.url}/api/v1/buildings/batch?x=1`, postJson(key, { bbls: ['1010150001'] })), 400, 'invalid_request', /"x"/);
    });
  });
});
