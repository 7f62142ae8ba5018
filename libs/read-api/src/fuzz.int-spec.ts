import fc from 'fast-check';
import { Client } from 'pg';
import { createTestDatabase, TestDatabase, testRedisPrefix } from '@bhis/testing';
import { auth, call, CallResult, postJson } from './testing/http';
import { seedBuildings, seedEvents, seedHistory } from './testing/seed';
import { createReadTestKey, ReadTestApi, startReadApi } from './testing/test-api';

const BBL = '1010150001';

/** Text of every kind: ASCII with control characters, any Unicode, and near-valid values. */
const text = fc.oneof(
  fc.string({ unit: 'binary-ascii', maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.constantFrom('', ' ', '0', '-1', '101', '1e3', '2024-02-30', '1000010001', 'D,F', 'nyc311,', '%', '_', '\\', "'", '"', '..', 'null', '[]', '{}'),
);

describe('random input never causes a server error (real Postgres and Redis)', () => {
  let db: TestDatabase;
  let api: ReadTestApi;
  let client: Client;
  let key: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    client = new Client({ connectionString: db.url });
    await client.connect();
    await seedBuildings(client, [{ bbl: BBL, address: '123 West 45 Street', score: 71 }]);
    await seedEvents(client, BBL, 60);
    await seedHistory(client, BBL, 30);
    api = await startReadApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix() });
    key = await createReadTestKey(db.url, { rateLimitPerMin: 10_000_000 });
  });

  afterAll(async () => {
    await api?.close();
    await client?.end();
    await db?.drop();
  });

  function expectHandled(res: CallResult, what: string): void {
    if (res.status >= 500) throw new Error(`${what} -> ${res.status}: ${res.text.slice(0, 300)}`);
    if (res.status === 200 || res.status === 304) return;
    const error = res.body.error as { code?: string; message?: string; status?: number } | undefined;
    if (!error?.code || !error.message || error.status !== res.status) throw new Error(`${what} -> ${res.status} without the error envelope: ${res.text.slice(0, 300)}`);
    expect(res.body.data).toBeUndefined();
  }

  const get = async (path: string) => {
    const res = await call(`${api.url}${path}`, auth(key));
    expectHandled(res, path);
  };

  it('path BBLs', async () => {
    await fc.assert(
      fc.asyncProperty(text, async (value) => {
        const segment = encodeURIComponent(value);
        for (const suffix of ['', '/events', '/trajectory']) await get(`/api/v1/buildings/${segment}${suffix}`);
      }),
      { numRuns: 80 },
    );
  });

  const params: Record<string, string[]> = {
    [`/api/v1/buildings/${BBL}`]: ['include', 'other'],
    '/api/v1/buildings/search': ['address', 'borough', 'zipcode', 'grade', 'owner', 'building_class', 'min_score', 'max_score', 'sort', 'limit', 'cursor', 'other'],
    [`/api/v1/buildings/${BBL}/events`]: ['source', 'category', 'severity', 'since', 'until', 'limit', 'cursor', 'other'],
    [`/api/v1/buildings/${BBL}/trajectory`]: ['limit', 'cursor', 'other'],
  };

  for (const [path, names] of Object.entries(params)) {
    it(`query parameters of ${path}`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...names), text, fc.option(fc.tuple(fc.constantFrom(...names), text)), async (name, value, extra) => {
          const query = new URLSearchParams([[name, value], ...(extra ? [extra] : [])]);
          // searches also with a valid filter, so the other parameters are reached
          if (path.endsWith('/search')) query.append('borough', '1');
          await get(`${path}?${query.toString()}`);
          await get(`${path}?${encodeURIComponent(name)}=${value.replace(/[#&\s]/g, '')}`); // raw, possibly malformed escapes
        }),
        { numRuns: 60 },
      );
    });
  }

  it('NUL characters and lone surrogates', async () => {
    for (const value of ['%00', 'ab%00c', '%00%00%00', '%ED%A0%80abc', '%FF%FEabc', '%C0%80abc']) {
      for (const name of ['address', 'owner', 'building_class', 'zipcode', 'grade', 'sort', 'cursor', 'limit']) await get(`/api/v1/buildings/search?borough=1&${name}=${value}`);
      for (const name of ['source', 'category', 'since', 'cursor']) await get(`/api/v1/buildings/${BBL}/events?${name}=${value}`);
      await get(`/api/v1/buildings/${value}`);
    }
    const res = await call(`${api.url}/api/v1/buildings/batch`, postJson(key, '{"bbls": ["\\u0000", "10101500\\u00001"]}'));
    expectHandled(res, 'batch with NUL');
  });

  it('batch bodies', async () => {
    const body = fc.oneof(
      fc.record({ bbls: fc.array(text, { maxLength: 20 }) }),
      fc.record({ bbls: fc.array(fc.anything(), { maxLength: 5 }) }),
      fc.dictionary(text, fc.anything(), { maxKeys: 3 }),
      fc.anything().map((v) => JSON.stringify(v) ?? 'undefined'),
      text,
    );
    await fc.assert(
      fc.asyncProperty(body, async (value) => {
        const res = await call(`${api.url}/api/v1/buildings/batch`, postJson(key, value));
        expectHandled(res, `batch ${JSON.stringify(value)?.slice(0, 100)}`);
      }),
      { numRuns: 120 },
    );
  });
});
