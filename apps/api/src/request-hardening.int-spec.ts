import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { Client } from 'pg';
import { ChangeListener } from '@bhis/db';
import { generateApiKey } from '@bhis/domain';
import { createTestDatabase, poll, TestDatabase, testRedisPrefix } from '@bhis/testing';
import { createTestKey, startTestApi, TestApi } from './testing/test-api';

interface Answer {
  status: number;
  headers: Headers;
  code: string | null;
  message: string;
}

async function post(api: TestApi, path: string, body: Buffer | string, headers: Record<string, string>): Promise<Answer> {
  const res = await fetch(`${api.url}${path}`, { method: 'POST', body: typeof body === 'string' ? body : new Uint8Array(body), headers: { 'Content-Type': 'application/json', ...headers } });
  const text = await res.text();
  let parsed: { error?: { code?: string; message?: string } } = {};
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    parsed = {};
  }
  return { status: res.status, headers: res.headers, code: parsed.error?.code ?? null, message: parsed.error?.message ?? '' };
}

/** A raw request whose answer (status and body) is read even when the server closes the connection. */
function raw(url: string, method: string, headers: Record<string, string>, body?: Buffer): Promise<{ status: number; body: string }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path: method === 'CONNECT' ? 'example.com:443' : '/api/v1/portfolio/analyze', headers, agent: false });
    const collect = (res: import('node:http').IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    };
    req.on('response', collect);
    req.on('connect', (res, socket, head: Buffer) => {
      let text = head.toString('utf8');
      socket.on('data', (c: Buffer) => (text += c.toString('utf8')));
      socket.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

/** Everything the server sends on one connection for the given bytes, until it closes the connection. */
function exchange(url: string, bytes: string): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(bytes));
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
}

/** The server's count of body bytes read for parsing (after decompression), from /metrics. */
async function bodyBytesRead(api: TestApi, metricsKey: string): Promise<number> {
  const text = await (await fetch(`${api.url}/metrics`, { headers: { Authorization: `Bearer ${metricsKey}` } })).text();
  const line = /^bhis_request_body_bytes_read_total (\S+)$/m.exec(text);
  if (!line) throw new Error('no bhis_request_body_bytes_read_total in /metrics');
  return Number(line[1]);
}

/** `{"bbls":[{},{},...]}` of 10 MiB: about 10 KB once compressed. */
const EMPTY_OBJECTS = Buffer.from(`{"bbls":[${'{},'.repeat((10 * 1024 * 1024) / 3 - 4)}{}]}`);

/** ~10 MiB of nested arrays: a few hundred bytes once compressed. */
const NESTED = Buffer.from(`${'['.repeat(5 * 1024 * 1024)}${']'.repeat(5 * 1024 * 1024)}`);

describe('request hardening: authentication before the body, body limits, costs by route (real Postgres and Redis)', () => {
  let db: TestDatabase;
  let api: TestApi;
  let key: string;
  let metricsKey: string;
  let bbls: string[];

  beforeAll(async () => {
    db = await createTestDatabase();
    api = await startTestApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix() });
    key = (await createTestKey(db.url, { scopes: ['buildings:read', 'portfolio:read', 'portfolio:write'] })).key;
    metricsKey = (await createTestKey(db.url, { scopes: ['metrics:read'] })).key;
    bbls = Array.from({ length: 10_000 }, (_, i) => `1${String(1000 + i).padStart(5, '0')}0001`);
  });

  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  it('never decompresses or parses the body of a request without a valid key', async () => {
    const bomb = brotliCompressSync(NESTED);
    expect(bomb.length).toBeLessThan(1024);
    const res = await post(api, '/api/v1/portfolio/analyze', bomb, { 'Content-Encoding': 'br' });
    expect(res.status).toBe(401);
    expect(res.code).toBe('missing_api_key');
    const gz = await post(api, '/api/v1/export/csv', gzipSync(NESTED), { 'Content-Encoding': 'gzip', Authorization: 'Bearer sk_live_nope' });
    expect(gz.code).toBe('invalid_api_key');
  });

  it('refuses a body for a route its key lacks the scope of (403) without inflating a byte of it', async () => {
    const bomb = gzipSync(EMPTY_OBJECTS, { level: 9 });
    expect(bomb.length).toBeLessThan(12 * 1024);
    const reader = (await createTestKey(db.url, { scopes: ['buildings:read', 'portfolio:read'] })).key;
    const before = await bodyBytesRead(api, metricsKey);
    const res = await post(api, '/api/v1/portfolio/monitor', bomb, { 'Content-Encoding': 'gzip', Authorization: `Bearer ${reader}` });
    expect([res.status, res.code]).toEqual([403, 'insufficient_scope']);
    expect(res.message).toContain('portfolio:write');
    // nor is a body read where no route takes one
    const none = await post(api, '/api/v1/portfolio/monitor/00000000-0000-4000-8000-000000000000', bomb, { 'Content-Encoding': 'gzip', Authorization: `Bearer ${key}` });
    expect([none.status, none.code]).toEqual([405, 'method_not_allowed']);
    expect(await bodyBytesRead(api, metricsKey)).toBe(before);
  });

  it('cuts a gzip bomb off at its route\'s limit while inflating it (413), and charges the bytes inflated', async () => {
    const before = await bodyBytesRead(api, metricsKey);
    const res = await post(api, '/api/v1/portfolio/monitor', gzipSync(EMPTY_OBJECTS, { level: 9 }), { 'Content-Encoding': 'gzip', Authorization: `Bearer ${key}` });
    expect([res.status, res.code]).toEqual([413, 'payload_too_large']);
    expect(res.message).toContain('256384 bytes');
    const read = (await bodyBytesRead(api, metricsKey)) - before;
    // the limit (256,384 bytes) and at most one more chunk of the gunzip stream (16 KiB)
    expect(read).toBeGreaterThan(256_384);
    expect(read).toBeLessThanOrEqual(256_384 + 16 * 1024);
    // 256,384 bytes of body cost 4 units (1 per 64 KiB inflated) where the route's minimum is 1
    expect(res.headers.get('x-ratelimit-cost')).toBe('4');
    const batch = await post(api, '/api/v1/buildings/batch', JSON.stringify({ bbls: Array.from({ length: 501 }, () => '1000010001 '.repeat(6)) }), { Authorization: `Bearer ${key}` });
    expect([batch.status, batch.code]).toEqual([413, 'payload_too_large']);
  });

  it('refuses encodings other than gzip with 415 unsupported_media_type, in the error envelope', async () => {
    for (const encoding of ['br', 'deflate', 'compress', 'gzip, br']) {
      const res = await post(api, '/api/v1/portfolio/analyze', brotliCompressSync(JSON.stringify({ bbls: ['1000010001'] })), {
        'Content-Encoding': encoding,
        Authorization: `Bearer ${key}`,
      });
      expect([res.status, res.code]).toEqual([415, 'unsupported_media_type']);
      expect(res.headers.get('x-ratelimit-limit')).toBe('6000');
    }
  });

  it('caps the decompressed size (413) and the nesting (400) of a gzip body while it streams', async () => {
    const big = gzipSync(Buffer.from(JSON.stringify({ bbls: ['x'.repeat(11 * 1024 * 1024)] })));
    const res = await post(api, '/api/v1/portfolio/analyze', big, { 'Content-Encoding': 'gzip', Authorization: `Bearer ${key}` });
    expect([res.status, res.code]).toEqual([413, 'payload_too_large']);
    const deep = await post(api, '/api/v1/portfolio/analyze', gzipSync(NESTED), { 'Content-Encoding': 'gzip', Authorization: `Bearer ${key}` });
    expect([deep.status, deep.code]).toEqual([400, 'invalid_request']);
    expect(deep.message).toMatch(/nests deeper than 64 levels/);
    const ok = await post(api, '/api/v1/portfolio/analyze', gzipSync(JSON.stringify({ bbls: ['1000010001'] })), {
      'Content-Encoding': 'gzip',
      Authorization: `Bearer ${key}`,
    });
    expect(ok.status).toBe(200);
  });

  it('takes the cost from the route: another case or a trailing slash is no route, and /API/ is limited too', async () => {
    const body = JSON.stringify({ bbls });
    const exact = await post(api, '/api/v1/portfolio/analyze', body, { Authorization: `Bearer ${key}` });
    expect(exact.status).toBe(200);
    expect(exact.headers.get('x-ratelimit-cost')).toBe('100');
    for (const path of ['/api/v1/portfolio/analyze/', '/api/v1/Portfolio/Analyze', '/API/v1/portfolio/analyze', '/api/v1//portfolio/analyze']) {
      const res = await post(api, path, body, { Authorization: `Bearer ${key}` });
      expect([path, res.status, res.code]).toEqual([path, 404, 'not_found']);
      expect(res.headers.get('x-ratelimit-cost')).toBe('1');
    }
    const anonymous = await fetch(`${api.url}/API/v1/buildings/1000010001`);
    await anonymous.text();
    expect(anonymous.headers.get('x-ratelimit-limit')).toBe('120');
  });

  it('answers what the HTTP parser refuses, and CONNECT, with the error envelope instead of a reset connection', async () => {
    const huge = await raw(api.url, 'POST', { 'X-Huge': 'h'.repeat(40_000), 'Content-Type': 'application/json' }, Buffer.from('{}'));
    expect(huge.status).toBe(400);
    expect(JSON.parse(huge.body)).toMatchObject({ error: { code: 'invalid_request', status: 400, message: expect.stringMatching(/16 KiB/) } });
    const connectAnswer = await raw(api.url, 'CONNECT', {});
    expect(connectAnswer.status).toBe(405);
    expect(connectAnswer.body).toContain('"code":"method_not_allowed"');
    // a body over the limit is answered 413, and the client can read the answer
    const oversized = await raw(api.url, 'POST', { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, Buffer.alloc(12 * 1024 * 1024, 0x20));
    expect(oversized.status).toBe(413);
    expect(JSON.parse(oversized.body)).toMatchObject({ error: { code: 'payload_too_large' } });
  });

  it('answers a request followed by bytes the parser refuses, and adds nothing a client would read as a second answer', async () => {
    // a DELETE body sent without a length is read as the start of a next request, which the parser refuses
    const head = `DELETE /api/v1/no-such-route HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n`;
    const closing = await exchange(api.url, `${head}Connection: close\r\n\r\n{"bbls":[1]}`);
    expect(closing.match(/^HTTP\/1\.1 \d+/gm)).toEqual(['HTTP/1.1 404']);
    expect(closing).toMatch(/Connection: close\r\n\r\n\{[^\r\n]*\}$/);
    // on a connection the client keeps open: the request's answer, then the connection is closed
    const kept = await exchange(api.url, `${head}\r\n{"bbls":[1]}`);
    expect(kept.match(/^HTTP\/1\.1 \d+/gm)).toEqual(['HTTP/1.1 404']);
    expect(kept).toMatch(/\r\n\r\n\{[^\r\n]*\}$/);
  });

  it('looks a repeated unknown key up in Postgres only once, until api_keys change', async () => {
    const listener = api.app.get(ChangeListener);
    await poll('the notification listener', async () => listener.isLive() || null, 10_000, 20);
    const probe = await createTestKey(db.url);
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    const status = async () => (await fetch(`${api.url}/api/v1`, { headers: { 'X-API-Key': probe.key } })).status;
    try {
      // the key's row disappears and comes back without an announcement: only a lookup would find it
      await pg.query('ALTER TABLE api_keys DISABLE TRIGGER api_keys_changed');
      await pg.query('CREATE TEMP TABLE saved AS SELECT * FROM api_keys WHERE id = $1', [probe.id]);
      await pg.query('DELETE FROM api_keys WHERE id = $1', [probe.id]);
      expect(await status()).toBe(401);
      await pg.query('INSERT INTO api_keys SELECT * FROM saved');
      expect(await status()).toBe(401);
      await pg.query('ALTER TABLE api_keys ENABLE TRIGGER api_keys_changed');
      // any announced change of api_keys forgets the unknown keys
      await pg.query(`UPDATE api_keys SET name = name || '.' WHERE id = $1`, [probe.id]);
      await poll('the key to be found', async () => ((await status()) === 200 ? true : null), 5_000, 50);
    } finally {
      await pg.query('ALTER TABLE api_keys ENABLE TRIGGER api_keys_changed').catch(() => undefined);
      await pg.end();
    }
  });

  it('limits invalid keys per client address: past the limit, 429 before any key is looked up', async () => {
    // a fresh Redis namespace: the requests above used some of this address's invalid-key allowance
    const fresh = await startTestApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix(), RATE_LIMIT_AUTH_FAILURES_PER_MIN: '5' });
    try {
      await limitsInvalidKeys(fresh);
    } finally {
      await fresh.close();
    }
  });

  it('never locks a valid key out after its address spent the invalid-key allowance, nor a key created since', async () => {
    const fresh = await startTestApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix(), RATE_LIMIT_AUTH_FAILURES_PER_MIN: '5' });
    const status = async (key: string) => (await fetch(`${fresh.url}/api/v1`, { headers: { Authorization: `Bearer ${key}` } })).status;
    try {
      await poll('the notification listener', async () => fresh.app.get(ChangeListener).isLive() || null, 10_000, 20);
      const valid = await createTestKey(db.url);
      await limitsInvalidKeys(fresh);
      // a change of api_keys empties the known keys: the valid key has to be looked up again, and is
      const created = await createTestKey(db.url);
      await poll('the change to be announced', async () => ((await status(valid.key)) === 200 ? true : null), 5_000, 50);
      expect(await status(created.key)).toBe(200);
      // guessed keys from the address stay refused without a lookup
      expect(await status(`sk_live_${'Y'.repeat(43)}`)).toBe(429);
    } finally {
      await fresh.close();
    }
  });

  it('announces a created key: a key refused as unknown is accepted once its row is inserted', async () => {
    await poll('the notification listener', async () => api.app.get(ChangeListener).isLive() || null, 10_000, 20);
    const generated = generateApiKey('live');
    const status = async () => (await fetch(`${api.url}/api/v1`, { headers: { 'X-API-Key': generated.key } })).status;
    expect(await status()).toBe(401); // now remembered as unknown
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    try {
      await pg.query(`INSERT INTO api_keys (name, kind, prefix, key_hash, scopes) VALUES ('inserted', 'live', $1, $2, '{buildings:read}')`, [generated.prefix, generated.hash]);
    } finally {
      await pg.end();
    }
    await poll('the insert to be announced', async () => ((await status()) === 200 ? true : null), 5_000, 50);
  });

  it('counts the invalid keys of an IPv6 client per /64', async () => {
    const fresh = await startTestApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix(), RATE_LIMIT_AUTH_FAILURES_PER_MIN: '3', TRUST_PROXY: 'loopback' });
    const from = (address: string, i: number) =>
      fetch(`${fresh.url}/api/v1`, { headers: { 'X-Forwarded-For': address, Authorization: `Bearer sk_live_${String(i % 10).repeat(42)}X` } }).then((r) => r.status);
    try {
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push(await from(`2001:db8:1:2::${i + 1}`, i));
      expect(statuses).toEqual([401, 401, 401, 429]);
      expect(await from('2001:db8:1:2:ffff:ffff:ffff:ffff', 5)).toBe(429);
      expect(await from('2001:db8:1:3::1', 6)).toBe(401);
    } finally {
      await fresh.close();
    }
  });

  async function limitsInvalidKeys(api: TestApi): Promise<void> {
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${api.url}/api/v1`, { headers: { Authorization: `Bearer sk_live_${String(i).repeat(43)}` } });
      expect(res.status).toBe(401);
    }
    const refused = await fetch(`${api.url}/api/v1`, { headers: { Authorization: `Bearer sk_live_${'Z'.repeat(43)}` } });
    const body = (await refused.json()) as { error: { code: string } };
    expect([refused.status, body.error.code]).toEqual([429, 'rate_limit_exceeded']);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  }
});
