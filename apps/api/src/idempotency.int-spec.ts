import { RequestMethod } from '@nestjs/common';
import { INTERCEPTORS_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { Pool } from 'pg';
import { IdempotencyInterceptor } from '@bhis/api-platform';
import { createTestDatabase, TestDatabase, testRedisPrefix } from '@bhis/testing';
import { createTestKey, startTestApi, TestApi } from './testing/test-api';

const HOOK = 'https://93.184.215.14/hooks/bhis';
const BBLS = ['2012340001', '2012340002'];

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

describe('Idempotency-Key on POST and PATCH (real Postgres and Redis)', () => {
  let db: TestDatabase;
  let pool: Pool;
  let api: TestApi;
  let live: string;
  let other: string;
  let admin: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 2 });
    api = await startTestApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix() });
    live = (await createTestKey(db.url, { name: 'live' })).key;
    other = (await createTestKey(db.url, { name: 'other' })).key;
    admin = (await createTestKey(db.url, { name: 'admin', scopes: ['admin'] })).key;
  });

  afterAll(async () => {
    await api?.close();
    await pool?.end();
    await db?.drop();
  });

  it('binds the interceptor to every POST and PATCH handler of the API, and to no other', () => {
    const unbound: string[] = [];
    const boundElsewhere: string[] = [];
    for (const module of api.app.get(ModulesContainer).values()) {
      for (const { metatype } of module.controllers.values()) {
        if (!metatype) continue;
        const prototype = (metatype as { prototype: Record<string, unknown> }).prototype;
        for (const name of Object.getOwnPropertyNames(prototype)) {
          const handler = prototype[name];
          if (name === 'constructor' || typeof handler !== 'function') continue;
          const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
          if (method === undefined) continue;
          const bound = ((Reflect.getMetadata(INTERCEPTORS_METADATA, handler) ?? []) as unknown[]).includes(IdempotencyInterceptor);
          const writes = method === RequestMethod.POST || method === RequestMethod.PATCH;
          if (writes && !bound) unbound.push(`${metatype.name}.${name}`);
          if (!writes && bound) boundElsewhere.push(`${metatype.name}.${name}`);
        }
      }
    }
    expect(unbound).toEqual([]);
    expect(boundElsewhere).toEqual([]);
  });

  async function send(method: string, path: string, key: string, body: unknown, idempotencyKey?: string): Promise<Answer> {
    const res = await fetch(`${api.url}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${key}`,
        'Content-Type': 'application/json',
        ...(idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey }),
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  }
  const codeOf = (answer: Answer) => (JSON.parse(answer.text) as { error: { code: string } }).error.code;
  const monitorsNamed = async (name: string) => (await pool.query(`SELECT id FROM monitors WHERE name = $1`, [name])).rows.length;

  it('answers a repeated monitor creation with the first answer, once created, and says it is a replay', async () => {
    const first = await send('POST', '/api/v1/portfolio/monitor', live, { name: 'once', bbls: BBLS, webhook_url: HOOK }, '"create-once-1"');
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // the same body spelled otherwise (key order, spaces) is the same request
    const again = await send('POST', '/api/v1/portfolio/monitor', live, `{ "webhook_url": "${HOOK}",  "bbls": ["2012340001","2012340002"], "name": "once" }`, 'create-once-1');
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.headers.get('cache-control')).toBe('no-store');
    expect(await monitorsNamed('once')).toBe(1);
  });

  it('refuses the key with a different body (422 idempotency_key_reused) and keeps keys apart by API key and route', async () => {
    expect((await send('POST', '/api/v1/portfolio/monitor', live, { name: 'reuse a', bbls: BBLS, webhook_url: HOOK }, 'reuse-1')).status).toBe(201);
    const reused = await send('POST', '/api/v1/portfolio/monitor', live, { name: 'reuse b', bbls: BBLS, webhook_url: HOOK }, 'reuse-1');
    expect([reused.status, codeOf(reused)]).toEqual([422, 'idempotency_key_reused']);
    expect(await monitorsNamed('reuse b')).toBe(0);
    // another API key, and another route, have keys of their own
    expect((await send('POST', '/api/v1/portfolio/monitor', other, { name: 'reuse b', bbls: BBLS, webhook_url: HOOK }, 'reuse-1')).status).toBe(201);
    const analysis = await send('POST', '/api/v1/portfolio/analyze', live, { bbls: BBLS }, 'reuse-1');
    expect([analysis.status, analysis.headers.get('idempotent-replayed')]).toEqual([200, null]);
  });

  it('runs the handler once for parallel requests with one key: the others get 409 while it is in flight, or its answer', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => send('POST', '/api/v1/portfolio/monitor', live, { name: 'parallel', bbls: BBLS, webhook_url: HOOK }, 'parallel-1')),
    );
    expect(await monitorsNamed('parallel')).toBe(1);
    const created = answers.filter((a) => a.status === 201);
    const inFlight = answers.filter((a) => a.status === 409);
    expect(created.length + inFlight.length).toBe(8);
    expect(created.filter((a) => a.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    for (const answer of created) expect(answer.text).toBe(created[0]!.text);
    for (const answer of inFlight) {
      expect(codeOf(answer)).toBe('idempotency_key_in_flight');
      expect(answer.headers.get('retry-after')).toBe('1');
    }
    // a request whose first is still in flight, deterministically
    const keyId = (await pool.query<{ api_key_id: string }>(`SELECT api_key_id FROM idempotency_keys WHERE idempotency_key = 'parallel-1'`)).rows[0]!.api_key_id;
    await pool.query(
      `INSERT INTO idempotency_keys (api_key_id, method, path, idempotency_key, request_hash, locked_until, expires_at)
       SELECT api_key_id, method, path, 'held-1', request_hash, now() + interval '1 minute', now() + interval '1 day' FROM idempotency_keys WHERE idempotency_key = 'parallel-1'`,
    );
    const held = await send('POST', '/api/v1/portfolio/monitor', live, { name: 'parallel', bbls: BBLS, webhook_url: HOOK }, 'held-1');
    expect([held.status, codeOf(held)]).toEqual([409, 'idempotency_key_in_flight']);
    // a holder whose process died lets the key go once its lock expires
    await pool.query(`UPDATE idempotency_keys SET locked_until = now() - interval '1 second' WHERE api_key_id = $1 AND idempotency_key = 'held-1'`, [keyId]);
    const taken = await send('POST', '/api/v1/portfolio/monitor', live, { name: 'parallel after a crash', bbls: BBLS, webhook_url: HOOK }, 'held-1');
    expect([taken.status, taken.headers.get('idempotent-replayed')]).toEqual([201, null]);

    const settled = await send('POST', '/api/v1/portfolio/monitor', live, { name: 'parallel', bbls: BBLS, webhook_url: HOOK }, 'parallel-1');
    expect([settled.status, settled.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    expect(await monitorsNamed('parallel')).toBe(1);
  });

  it.each([
    ['empty', '""'],
    ['too long', 'k'.repeat(256)],
    ['with a space', 'two words'],
    ['sent twice', 'a, b'],
    ['an unclosed string', '"abc'],
  ])('answers a malformed key (%s) 400 invalid_idempotency_key before any work', async (_what, value) => {
    const res = await send('POST', '/api/v1/portfolio/monitor', live, { name: `bad key ${value.length}`, bbls: BBLS, webhook_url: HOOK }, value);
    expect([res.status, codeOf(res)]).toEqual([400, 'invalid_idempotency_key']);
    expect(await monitorsNamed(`bad key ${value.length}`)).toBe(0);
  });

  it('gives the key up after an error answer, so the corrected request may use it', async () => {
    const refused = await send('POST', '/api/v1/portfolio/monitor', live, { name: 'fixed', bbls: ['12345'], webhook_url: HOOK }, 'fix-1');
    expect([refused.status, codeOf(refused)]).toEqual([400, 'invalid_bbl']);
    const fixed = await send('POST', '/api/v1/portfolio/monitor', live, { name: 'fixed', bbls: BBLS, webhook_url: HOOK }, 'fix-1');
    expect([fixed.status, fixed.headers.get('idempotent-replayed')]).toEqual([201, null]);
  });

  it('keeps an answer 24 hours: an expired key is a new request', async () => {
    expect((await send('POST', '/api/v1/portfolio/monitor', live, { name: 'expiring', bbls: BBLS, webhook_url: HOOK }, 'expire-1')).status).toBe(201);
    const { rows } = await pool.query<{ ttl: number }>(
      `SELECT extract(epoch FROM expires_at - created_at)::int AS ttl FROM idempotency_keys WHERE idempotency_key = 'expire-1'`,
    );
    expect(rows).toEqual([{ ttl: 86_400 }]);
    await pool.query(`UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE idempotency_key = 'expire-1'`);
    const fresh = await send('POST', '/api/v1/portfolio/monitor', live, { name: 'expiring again', bbls: BBLS, webhook_url: HOOK }, 'expire-1');
    expect([fresh.status, fresh.headers.get('idempotent-replayed')]).toEqual([201, null]);
    expect(await monitorsNamed('expiring again')).toBe(1);
  });

  it('replays the other POSTs and PATCH too: batch and export (written by their handlers), analysis, test events, admin runs', async () => {
    const batch = await send('POST', '/api/v1/buildings/batch', live, { bbls: BBLS }, 'batch-1');
    const batchAgain = await send('POST', '/api/v1/buildings/batch', live, { bbls: BBLS }, 'batch-1');
    expect([batch.status, batchAgain.status, batchAgain.headers.get('idempotent-replayed')]).toEqual([200, 200, 'true']);
    expect(batchAgain.text).toBe(batch.text);

    const csv = await send('POST', '/api/v1/export/csv', live, { bbls: BBLS }, 'export-1');
    const csvAgain = await send('POST', '/api/v1/export/csv', live, { bbls: BBLS }, 'export-1');
    expect([csv.status, csvAgain.headers.get('idempotent-replayed'), csvAgain.headers.get('content-type')]).toEqual([200, 'true', csv.headers.get('content-type')]);
    expect(csvAgain.text).toBe(csv.text);

    const created = await send('POST', '/api/v1/portfolio/monitor', live, { name: 'tested', bbls: BBLS, webhook_url: HOOK });
    const id = (JSON.parse(created.text) as { data: { monitor: { id: string } } }).data.monitor.id;
    const test = await send('POST', `/api/v1/portfolio/monitor/${id}/test`, live, undefined, 'test-1');
    const testAgain = await send('POST', `/api/v1/portfolio/monitor/${id}/test`, live, undefined, 'test-1');
    expect([test.status, testAgain.status, testAgain.text === test.text]).toEqual([202, 202, true]);
    expect((await pool.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE monitor_id = $1`, [id])).rows).toEqual([{ n: 1 }]);

    const patch = await send('PATCH', `/api/v1/portfolio/monitor/${id}`, live, { name: 'tested twice' }, 'patch-1');
    const patchAgain = await send('PATCH', `/api/v1/portfolio/monitor/${id}`, live, { name: 'tested twice' }, 'patch-1');
    expect([patch.status, patchAgain.headers.get('idempotent-replayed'), patchAgain.text === patch.text]).toEqual([200, 'true', true]);

    const score = await send('POST', '/api/v1/admin/score', admin, { bbls: BBLS }, 'score-1');
    const scoreAgain = await send('POST', '/api/v1/admin/score', admin, { bbls: BBLS }, 'score-1');
    expect([score.status, scoreAgain.status, scoreAgain.headers.get('idempotent-replayed')]).toEqual([202, 202, 'true']);
    expect(scoreAgain.text).toBe(score.text);
  });

  it("keeps answers compressed and within the key's quota: past it a new key is refused, a known one still replays, no header still serves", async () => {
    const demo = await createTestKey(db.url, { name: 'demo', kind: 'demo' });
    const first = await send('POST', '/api/v1/buildings/batch', demo.key, { bbls: BBLS }, 'quota-1');
    expect(first.status).toBe(200);
    const kept = await pool.query<{ gzip: boolean; bytes: number }>(
      `SELECT body_gzip AS gzip, octet_length(response_body) AS bytes FROM idempotency_keys WHERE api_key_id = $1 AND idempotency_key = 'quota-1'`,
      [demo.id],
    );
    expect(kept.rows[0]?.gzip).toBe(true);
    expect(kept.rows[0]?.bytes).toBeLessThan(Buffer.byteLength(first.text));
    const usage = await pool.query<{ bytes: string }>(`SELECT sum(bytes) AS bytes FROM idempotency_usage WHERE api_key_id = $1`, [demo.id]);
    expect(Number(usage.rows[0]?.bytes)).toBe(kept.rows[0]?.bytes);
    // the demo key's day of stored answers used up (8 MB)
    await pool.query(`UPDATE idempotency_usage SET bytes = 8 * 1024 * 1024 WHERE api_key_id = $1`, [demo.id]);
    const refused = await send('POST', '/api/v1/buildings/batch', demo.key, { bbls: BBLS }, 'quota-2');
    expect([refused.status, codeOf(refused), refused.headers.get('retry-after')]).toEqual([429, 'rate_limit_exceeded', '3600']);
    expect((JSON.parse(refused.text) as { error: { message: string } }).error.message).toMatch(/without Idempotency-Key/);
    const replay = await send('POST', '/api/v1/buildings/batch', demo.key, { bbls: BBLS }, 'quota-1');
    expect([replay.status, replay.headers.get('idempotent-replayed'), replay.text]).toEqual([200, 'true', first.text]);
    expect((await send('POST', '/api/v1/buildings/batch', demo.key, { bbls: BBLS })).status).toBe(200);
    // hours older than a day no longer count
    await pool.query(`UPDATE idempotency_usage SET hour = hour - interval '26 hours' WHERE api_key_id = $1`, [demo.id]);
    expect((await send('POST', '/api/v1/buildings/batch', demo.key, { bbls: BBLS }, 'quota-2')).status).toBe(200);
  });
});
