import { Body, Controller, Get, Module, Post } from '@nestjs/common';
import { IsArray, IsString } from 'class-validator';
import { Client } from 'pg';
import { RequireScope } from '@bhis/api-platform';
import { CHANGE_CHANNELS, ChangeListener } from '@bhis/db';
import { REQUEST_ID_PATTERN } from '@bhis/envelope';
import { ANNOUNCED_WITHIN_MS, createTestDatabase, poll, TestDatabase, testRedisPrefix } from '@bhis/testing';
import { createTestKey, startTestApi, TestApi } from './testing/test-api';

class EchoBody {
  @IsArray()
  @IsString({ each: true })
  bbls!: string[];
}

/** Routes that exist only in this test, to exercise scopes, validation and unexpected errors. */
@Controller('api/v1/test')
class ProbeController {
  @RequireScope('admin')
  @Get('admin-only')
  adminOnly() {
    return { ok: true };
  }

  @Get('boom')
  boom(): never {
    throw new Error('SELECT secret FROM internal_table WHERE host = db-internal-7');
  }

  @Post('echo')
  echo(@Body() body: EchoBody) {
    return { count: body.bbls.length };
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

async function call(api: TestApi, path: string, init: RequestInit = {}) {
  const res = await fetch(`${api.url}${path}`, init);
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = { raw: text };
  }
  return { status: res.status, headers: res.headers, body, text };
}

function expectErrorEnvelope(res: Awaited<ReturnType<typeof call>>, status: number, code: string): void {
  expect(res.status).toBe(status);
  const error = res.body.error as { code: string; message: string; status: number; doc_url: string };
  expect(error).toEqual(expect.objectContaining({ code, status }));
  expect(typeof error.message).toBe('string');
  expect(error.message.length).toBeGreaterThan(0);
  // absolute, from the request's base URL (that of each test's own server)
  expect(error.doc_url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/api-docs\\.md#error-${code.replace(/_/g, '-')}$`));
  expect(res.body.data).toBeUndefined();
  const meta = res.body.meta as { request_id: string; timestamp: string };
  expect(meta.request_id).toMatch(REQUEST_ID_PATTERN);
  expect(res.headers.get('x-request-id')).toBe(meta.request_id);
  expect(new Date(meta.timestamp).toISOString()).toBe(meta.timestamp);
  expect(res.text).not.toMatch(/at \S+ \(|SELECT|internal_table|db-internal/);
}

describe('API platform (real Postgres and Redis)', () => {
  let db: TestDatabase;
  let api: TestApi;
  let env: Record<string, string>;
  let live: { key: string; id: string; prefix: string };

  beforeAll(async () => {
    db = await createTestDatabase();
    env = { DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix(), KEY_USAGE_FLUSH_MS: '200' };
    api = await startTestApi(env, [ProbeModule]);
    live = await createTestKey(db.url);
  });

  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  const bearer = (key: string) => ({ headers: { Authorization: `Bearer ${key}` } });

  it('serves the health check without a key, in the envelope, with the state of Postgres and Redis', async () => {
    const res = await call(api, '/api/v1/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        status: 'ok',
        checks: {
          postgres: { status: 'up', latency_ms: expect.any(Number) },
          redis: { status: 'up', latency_ms: expect.any(Number) },
        },
      },
      meta: {
        request_id: expect.stringMatching(REQUEST_ID_PATTERN),
        api_version: 'v1',
        timestamp: expect.any(String),
        rate_limit: { limit: 120, remaining: expect.any(Number), reset_at: expect.any(String) },
      },
      pagination: null,
      _links: {},
    });
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
  });

  it('names no replica and no lag in the keyless health check; a metrics:read or admin key sees them', async () => {
    const replicated = await startTestApi({ ...env, REDIS_PREFIX: testRedisPrefix(), DATABASE_READ_URL: 'postgres://reader:secret@127.0.0.1:1/bhis_replica' });
    try {
      const keyless = await call(replicated, '/api/v1/health');
      expect(keyless.status).toBe(200);
      expect(keyless.body.data).toEqual({
        status: 'ok',
        checks: expect.objectContaining({ postgres_replicas: { status: 'up', reads_from: 'primary', replicas: [{ status: 'down', in_use: false }] } }),
      });
      expect(keyless.text).not.toMatch(/127\.0\.0\.1|:1\/|bhis_replica|lag_/);
      // a key without the scope sees what a visitor sees
      expect((await call(replicated, '/api/v1/health', bearer(live.key))).text).not.toMatch(/bhis_replica|lag_/);
      for (const scopes of [['metrics:read'], ['admin']] as const) {
        const operator = await call(replicated, '/api/v1/health', bearer((await createTestKey(db.url, { scopes: [...scopes] })).key));
        expect((operator.body.data as { checks: Record<string, unknown> }).checks.postgres_replicas).toEqual({
          status: 'up',
          reads_from: 'primary',
          replicas: [{ name: '127.0.0.1:1/bhis_replica', status: 'down', in_use: false, lag_ms: null, lag_bytes: null }],
        });
      }
    } finally {
      await replicated.close();
    }
  });

  it('answers the index to any valid key, in Authorization: Bearer or X-API-Key, with absolute links', async () => {
    for (const init of [bearer(live.key), { headers: { 'X-API-Key': live.key } }]) {
      const res = await call(api, '/api/v1', init);
      expect(res.status).toBe(200);
      const links = res.body._links as Record<string, string>;
      expect(links.self).toBe(`${api.url}/api/v1`);
      expect(links.health).toBe(`${api.url}/api/v1/health`);
      const meta = res.body.meta as { rate_limit: { limit: number; remaining: number; reset_at: string } };
      expect(meta.rate_limit.limit).toBe(6000);
      expect(res.headers.get('x-ratelimit-limit')).toBe('6000');
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(meta.rate_limit.remaining));
      expect(res.headers.get('x-ratelimit-reset')).toBe(meta.rate_limit.reset_at);
      expect(res.headers.get('retry-after')).toBeNull();
    }
  });

  it('401 missing_api_key without a key, with rate-limit headers', async () => {
    const res = await call(api, '/api/v1');
    expectErrorEnvelope(res, 401, 'missing_api_key');
    expect(res.headers.get('x-ratelimit-limit')).toBe('120');
    expect(res.headers.get('x-ratelimit-reset')).toMatch(/Z$/);
  });

  it('401 invalid_api_key for unknown, malformed, expired and revoked keys', async () => {
    const unknown = `sk_live_${'A'.repeat(43)}`;
    expectErrorEnvelope(await call(api, '/api/v1', bearer(unknown)), 401, 'invalid_api_key');
    expectErrorEnvelope(await call(api, '/api/v1', bearer('not-a-key')), 401, 'invalid_api_key');
    expectErrorEnvelope(await call(api, '/api/v1', { headers: { Authorization: `Basic ${live.key}` } }), 401, 'invalid_api_key');

    const expiring = await createTestKey(db.url, { expiresAt: new Date(Date.now() + 1500) });
    expect((await call(api, '/api/v1', bearer(expiring.key))).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1600));
    const expired = await call(api, '/api/v1', bearer(expiring.key));
    expectErrorEnvelope(expired, 401, 'invalid_api_key');
    expect((expired.body.error as { message: string }).message).toMatch(/expired/);
  });

  it('revocation reaches every API instance as soon as Postgres announces it, and holds', async () => {
    const second = await startTestApi(env, [ProbeModule]);
    try {
      const victim = await createTestKey(db.url);
      expect((await call(api, '/api/v1', bearer(victim.key))).status).toBe(200);
      expect((await call(second, '/api/v1', bearer(victim.key))).status).toBe(200);
      const pg = new Client({ connectionString: db.url });
      await pg.connect();
      await pg.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [victim.id]);
      await pg.end();
      // the announcement reaches each instance on its own LISTEN connection (docs/adr/0006-in-memory-caches.md)
      for (const instance of [api, second]) {
        await poll('the revocation announced', async () => ((await call(instance, '/api/v1', bearer(victim.key))).status === 401 ? true : null), ANNOUNCED_WITHIN_MS, 10);
      }
      for (const instance of [api, second]) {
        const res = await call(instance, '/api/v1', bearer(victim.key));
        expectErrorEnvelope(res, 401, 'invalid_api_key');
        expect((res.body.error as { message: string }).message).toMatch(/revoked/);
      }
    } finally {
      await second.close();
    }
  });

  it('keeps known keys in memory, and checks Postgres on every request while notifications are down', async () => {
    const listener = api.app.get(ChangeListener);
    // what the key cache hears: an announced change of api_keys, or the listener lost or back
    let heard = 0;
    listener.onChange(CHANGE_CHANNELS.apiKeys, () => heard++);
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    let victim: Awaited<ReturnType<typeof createTestKey>> = { key: '', id: '', prefix: '' };
    try {
      // a revocation Postgres does not announce is not seen: the key is served from memory. On a busy
      // machine something else may drop the cache meanwhile (a listener probe that timed out): then the
      // scenario did not happen, and is tried again with a new key
      for (let attempt = 0; ; attempt++) {
        await poll('the notification listener', async () => listener.isLive() || null, 10_000, 20);
        const announced = heard;
        victim = await createTestKey(db.url);
        await poll('the new key announced', async () => heard > announced || null, 5_000, 5);
        expect((await call(api, '/api/v1', bearer(victim.key))).status).toBe(200);
        const before = heard;
        await pg.query('ALTER TABLE api_keys DISABLE TRIGGER api_keys_changed');
        await pg.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [victim.id]);
        await pg.query('ALTER TABLE api_keys ENABLE TRIGGER api_keys_changed');
        const status = (await call(api, '/api/v1', bearer(victim.key))).status;
        if (heard === before || attempt === 2) {
          expect(status).toBe(200);
          break;
        }
      }
      // the notification connection is lost: nothing is served from memory until it is back
      await pg.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'bhis-api-listener' AND datname = current_database()`);
      await poll('the listener to notice', async () => !listener.isLive() || null, 5_000, 5);
      expectErrorEnvelope(await call(api, '/api/v1', bearer(victim.key)), 401, 'invalid_api_key');
      await poll('the listener to be back', async () => listener.isLive() || null, 10_000, 20);
      expectErrorEnvelope(await call(api, '/api/v1', bearer(victim.key)), 401, 'invalid_api_key');
    } finally {
      await pg.end();
    }
  });

  it('403 insufficient_scope names the missing scope; a key with the scope passes', async () => {
    const res = await call(api, '/api/v1/test/admin-only', bearer(live.key));
    expectErrorEnvelope(res, 403, 'insufficient_scope');
    expect((res.body.error as { message: string }).message).toContain('"admin"');
    const admin = await createTestKey(db.url, { scopes: ['admin'] });
    expect((await call(api, '/api/v1/test/admin-only', bearer(admin.key))).status).toBe(200);
  });

  it('404 not_found for unknown routes and 405 method_not_allowed with Allow for a wrong method', async () => {
    expectErrorEnvelope(await call(api, '/api/v1/no-such-thing', bearer(live.key)), 404, 'not_found');
    expectErrorEnvelope(await call(api, '/nowhere'), 404, 'not_found');
    const wrong = await call(api, '/api/v1/health', { method: 'DELETE' });
    expectErrorEnvelope(wrong, 405, 'method_not_allowed');
    expect(wrong.headers.get('allow')).toBe('GET, HEAD');
  });

  it('400 invalid_request for malformed JSON, a wrong content type and a badly typed body', async () => {
    const post = (body: string, type = 'application/json') =>
      call(api, '/api/v1/test/echo', { method: 'POST', body, headers: { Authorization: `Bearer ${live.key}`, 'Content-Type': type } });
    const malformed = await post('{"bbls": [');
    expectErrorEnvelope(malformed, 400, 'invalid_request');
    expect(malformed.headers.get('x-ratelimit-limit')).toBe('6000');
    expectErrorEnvelope(await post('bbls=1', 'application/x-www-form-urlencoded'), 400, 'invalid_request');
    const typed = await post('{"bbls": "1000010001"}');
    expectErrorEnvelope(typed, 400, 'invalid_request');
    expect((typed.body.error as { message: string }).message).toContain('bbls');
    const unknown = await post('{"bbls": [], "extra": 1}');
    expectErrorEnvelope(unknown, 400, 'invalid_request');
    expect((unknown.body.error as { message: string }).message).toContain('extra');
    expect((await post('{"bbls": ["1"]}')).body).toEqual({ count: 1 });
    const deep = await post(`{"bbls": ${'['.repeat(5000)}${']'.repeat(5000)}}`);
    expectErrorEnvelope(deep, 400, 'invalid_request');
    expect((deep.body.error as { message: string }).message).toMatch(/nests deeper than 64 levels/);
  });

  it('413 payload_too_large over the default body limit (28,384 bytes)', async () => {
    const body = JSON.stringify({ bbls: Array.from({ length: 2_200 }, () => '1000010001') });
    expect(body.length).toBeGreaterThan(28_384);
    const res = await call(api, '/api/v1/test/echo', {
      method: 'POST',
      body,
      headers: { Authorization: `Bearer ${live.key}`, 'Content-Type': 'application/json' },
    });
    expectErrorEnvelope(res, 413, 'payload_too_large');
  });

  it('500 internal_error for an unexpected exception, with nothing internal in the body', async () => {
    const res = await call(api, '/api/v1/test/boom', bearer(live.key));
    expectErrorEnvelope(res, 500, 'internal_error');
  });

  it('429 rate_limit_exceeded with Retry-After once the key has used its units', async () => {
    const limited = await createTestKey(db.url, { rateLimitPerMin: 3 });
    for (let i = 0; i < 3; i++) expect((await call(api, '/api/v1', bearer(limited.key))).status).toBe(200);
    const res = await call(api, '/api/v1', bearer(limited.key));
    expectErrorEnvelope(res, 429, 'rate_limit_exceeded');
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    expect((res.body.meta as { rate_limit: { remaining: number } }).rate_limit.remaining).toBe(0);
  });

  it('shares rate limits between API instances through Redis', async () => {
    const second = await startTestApi(env);
    try {
      const limited = await createTestKey(db.url, { rateLimitPerMin: 4 });
      for (const instance of [api, second, api, second]) {
        expect((await call(instance, '/api/v1', bearer(limited.key))).status).toBe(200);
      }
      expectErrorEnvelope(await call(second, '/api/v1', bearer(limited.key)), 429, 'rate_limit_exceeded');
      expectErrorEnvelope(await call(api, '/api/v1', bearer(limited.key)), 429, 'rate_limit_exceeded');
    } finally {
      await second.close();
    }
  });

  it('charges requests without a key to the client address: X-Forwarded-For counts only from a trusted proxy', async () => {
    const limits = { ...env, REDIS_PREFIX: testRedisPrefix(), RATE_LIMIT_ANONYMOUS_PER_MIN: '2' };
    const direct = await startTestApi(limits);
    const proxied = await startTestApi({ ...limits, REDIS_PREFIX: testRedisPrefix(), TRUST_PROXY: 'loopback' });
    const from = (address: string) => ({ headers: { 'X-Forwarded-For': address } });
    try {
      // a client that names a new address each time is still the one address it connects from
      for (const address of ['203.0.113.1', '203.0.113.2']) expect((await call(direct, '/api/v1/health', from(address))).status).toBe(200);
      expectErrorEnvelope(await call(direct, '/api/v1/health', from('203.0.113.3')), 429, 'rate_limit_exceeded');

      // behind a trusted proxy each forwarded address has its own allowance
      for (let i = 0; i < 2; i++) expect((await call(proxied, '/api/v1/health', from('203.0.113.1'))).status).toBe(200);
      expectErrorEnvelope(await call(proxied, '/api/v1/health', from('203.0.113.1')), 429, 'rate_limit_exceeded');
      expect((await call(proxied, '/api/v1/health', from('203.0.113.2'))).status).toBe(200);
    } finally {
      await direct.close();
      await proxied.close();
    }
  });

  it('records last_used_at in batches, not per request', async () => {
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    try {
      const before = await pg.query('SELECT last_used_at FROM api_keys WHERE id = $1', [live.id]);
      await call(api, '/api/v1', bearer(live.key));
      await new Promise((r) => setTimeout(r, 600));
      const after = await pg.query('SELECT last_used_at FROM api_keys WHERE id = $1', [live.id]);
      expect(after.rows[0].last_used_at).not.toBeNull();
      expect(after.rows[0].last_used_at).not.toEqual(before.rows[0].last_used_at ?? 'never');
    } finally {
      await pg.end();
    }
  });

  it('exposes Prometheus metrics by route and status to a key with the metrics:read scope only', async () => {
    await call(api, '/api/v1/health');
    expectErrorEnvelope(await call(api, '/metrics'), 401, 'missing_api_key');
    expectErrorEnvelope(await call(api, '/metrics', bearer(live.key)), 403, 'insufficient_scope');
    const scraper = bearer((await createTestKey(db.url, { scopes: ['metrics:read'] })).key);
    const res = await call(api, '/metrics', scraper);
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/http_requests_total\{method="GET",route="\/api\/v1\/health",status="200"\} \d+/);
    expect(res.text).toContain('http_request_duration_seconds_bucket');
    await poll('the notification listener', async () => api.app.get(ChangeListener).isLive() || null, 10_000, 20);
    expect((await call(api, '/metrics', scraper)).text).toMatch(/^bhis_change_notifications_up 1$/m);
  });

  it('builds links from PUBLIC_BASE_URL, and honours X-Forwarded-* only from a trusted proxy', async () => {
    const forwarded = { headers: { Authorization: `Bearer ${live.key}`, 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https' } };
    const untrusted = await call(api, '/api/v1', forwarded);
    expect((untrusted.body._links as { self: string }).self).toBe(`${api.url}/api/v1`);

    const proxied = await startTestApi({ ...env, TRUST_PROXY: 'loopback' });
    const fixed = await startTestApi({ ...env, PUBLIC_BASE_URL: 'https://api.example.org' });
    try {
      const viaProxy = await call(proxied, '/api/v1', forwarded);
      expect((viaProxy.body._links as { self: string }).self).toBe('https://evil.example/api/v1');
      const viaBase = await call(fixed, '/api/v1', bearer(live.key));
      expect((viaBase.body._links as { self: string }).self).toBe('https://api.example.org/api/v1');
      const error = await call(fixed, '/api/v1/no-such-route', bearer(live.key));
      expect((error.body.error as { doc_url: string }).doc_url).toBe('https://api.example.org/api-docs.md#error-not-found');
      const refused = await call(fixed, '/api/v1');
      expect((refused.body.error as { doc_url: string }).doc_url).toBe('https://api.example.org/api-docs.md#error-missing-api-key');
    } finally {
      await proxied.close();
      await fixed.close();
    }
  });
});

describe('API platform with a backing service down', () => {
  it('503 service_unavailable when Postgres is unreachable; the process keeps running', async () => {
    const api = await startTestApi({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', REDIS_PREFIX: testRedisPrefix() });
    try {
      const health = await call(api, '/api/v1/health');
      expectErrorEnvelope(health, 503, 'service_unavailable');
      const details = (health.body.error as { details: { checks: Record<string, { status: string }> } }).details;
      expect(details.checks.postgres.status).toBe('down');
      expect(details.checks.redis.status).toBe('up');
      const withKey = await call(api, '/api/v1', { headers: { Authorization: `Bearer sk_live_${'B'.repeat(43)}` } });
      expectErrorEnvelope(withKey, 503, 'service_unavailable');
    } finally {
      await api.close();
    }
  });

  it('keeps serving with per-instance rate limits when Redis is unreachable, and health reports 503', async () => {
    const db = await createTestDatabase();
    const api = await startTestApi({ DATABASE_URL: db.url, REDIS_URL: 'redis://127.0.0.1:1', REDIS_PREFIX: testRedisPrefix() });
    try {
      const key = await createTestKey(db.url, { rateLimitPerMin: 2 });
      const auth = { headers: { Authorization: `Bearer ${key.key}` } };
      expect((await call(api, '/api/v1', auth)).status).toBe(200);
      expect((await call(api, '/api/v1', auth)).status).toBe(200);
      expectErrorEnvelope(await call(api, '/api/v1', auth), 429, 'rate_limit_exceeded');
      const health = await call(api, '/api/v1/health');
      expectErrorEnvelope(health, 503, 'service_unavailable');
    } finally {
      await api.close();
      await db.drop();
    }
  });
});
