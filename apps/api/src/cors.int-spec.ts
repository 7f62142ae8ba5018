import { request } from 'node:http';
import { createTestDatabase, TestDatabase, testRedisPrefix } from '@bhis/testing';
import { createTestKey, startTestApi, TestApi } from './testing/test-api';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request with node:http: fetch may not send `Origin` as given. */
function send(api: TestApi, method: string, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${api.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

const ALLOWED = 'https://app.example.org';
const OTHER = 'https://evil.example';

const preflight = (api: TestApi, origin: string, path = '/api/v1/buildings/batch') =>
  send(api, 'OPTIONS', path, { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization, content-type' });

describe('CORS (real Postgres and Redis)', () => {
  let db: TestDatabase;
  let api: TestApi;
  let key: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    api = await startTestApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix(), CORS_ORIGINS: `${ALLOWED}, http://localhost:5173`, RATE_LIMIT_ANONYMOUS_PER_MIN: '3' });
    ({ key } = await createTestKey(db.url, { rateLimitPerMin: 5 }));
  });

  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  it('answers a preflight from an allowed origin 204 with the methods and headers, without a key and without charging it', async () => {
    // more preflights than the keyless allowance (3 a minute): none is charged
    for (let i = 0; i < 8; i++) {
      const res = await preflight(api, ALLOWED);
      expect(res.status).toBe(204);
      expect(res.body).toBe('');
      expect(res.headers['access-control-allow-origin']).toBe(ALLOWED);
      expect(String(res.headers['access-control-allow-methods']).split(', ')).toEqual(expect.arrayContaining(['GET', 'POST', 'PATCH', 'DELETE']));
      expect(String(res.headers['access-control-allow-headers']).split(', ')).toEqual(
        expect.arrayContaining(['Authorization', 'X-API-Key', 'Content-Type', 'If-None-Match', 'X-Request-Id', 'traceparent']),
      );
      expect(res.headers['access-control-max-age']).toBe('600');
      expect(res.headers.vary).toBe('Origin, Access-Control-Request-Method, Access-Control-Request-Headers');
      expect(res.headers['x-ratelimit-cost']).toBeUndefined();
      expect(res.headers['x-request-id']).toMatch(/^req_/);
    }
    const other = await preflight(api, 'http://localhost:5173', '/api/v1/buildings/1000010001');
    expect([other.status, other.headers['access-control-allow-origin']]).toEqual([204, 'http://localhost:5173']);
    // the keyless allowance is whole: a real request without a key is the first one charged
    const keyless = await send(api, 'GET', '/api/v1/buildings/1000010001', { Origin: ALLOWED });
    expect(keyless.status).toBe(401);
    expect(keyless.headers['x-ratelimit-remaining']).toBe('2');
  });

  it('gives answers to an allowed origin the CORS headers, refusals included, and checks the key of every real request', async () => {
    // a 401 of the scope guard: readable by the page, with its request id
    const refused = await send(api, 'POST', '/api/v1/buildings/batch', { Origin: ALLOWED });
    expect(refused.status).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(String(refused.headers['access-control-expose-headers']).split(', ')).toEqual(
      expect.arrayContaining(['X-Request-Id', 'X-RateLimit-Remaining', 'Retry-After', 'ETag', 'Link', 'X-Export-Not-Found']),
    );
    expect(refused.headers.vary).toBe('Origin');
    // an OPTIONS that is not a preflight (no Access-Control-Request-Method) goes on like any request
    const options = await send(api, 'OPTIONS', '/api/v1/buildings/batch', { Origin: ALLOWED });
    expect(options.status).not.toBe(204);
    expect(options.headers['x-ratelimit-cost']).toBe('1');

    // answers of the router: a 404 and a cacheable JSON answer keep their own Vary and add Origin
    const auth = { Origin: ALLOWED, Authorization: `Bearer ${key}` };
    const missing = await send(api, 'GET', '/api/v1/buildings/1000010001', auth);
    expect([missing.status, missing.headers['access-control-allow-origin']]).toEqual([404, ALLOWED]);
    const index = await send(api, 'GET', '/api/v1', auth);
    expect([index.status, index.headers['access-control-allow-origin']]).toEqual([200, ALLOWED]);
    const page = await send(api, 'GET', '/api/v1/buildings/search?min_score=0', auth);
    expect(page.status).toBe(200);
    expect(page.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(String(page.headers.vary).split(/,\s*/).sort()).toEqual(['Accept-Encoding', 'Authorization', 'Origin', 'X-API-Key']);
  });

  it('gives another origin nothing: no CORS headers, and its preflight is an ordinary request, charged', async () => {
    const res = await preflight(api, OTHER);
    expect(res.status).not.toBe(204);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-allow-methods']).toBeUndefined();
    expect(res.headers['x-ratelimit-cost']).toBe('1');
    const get = await send(api, 'GET', '/api/v1', { Origin: OTHER, Authorization: `Bearer ${key}` });
    expect(get.status).toBe(200);
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
    expect(get.headers.vary).toBeUndefined();
  });

  it('is off by default: no preflight is answered and no answer carries CORS headers', async () => {
    const plain = await startTestApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix() });
    try {
      const res = await preflight(plain, ALLOWED);
      expect(res.status).not.toBe(204);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      const get = await send(plain, 'GET', '/api/v1', { Origin: ALLOWED, Authorization: `Bearer ${key}` });
      expect([get.status, get.headers['access-control-allow-origin']]).toEqual([200, undefined]);
    } finally {
      await plain.close();
    }
  });
});
