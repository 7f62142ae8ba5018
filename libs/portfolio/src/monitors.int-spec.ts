import { Pool } from 'pg';
import { createTestDatabase, TestDatabase, testRedisPrefix } from '@bhis/testing';
import { call, createKeys, dataOf, errorOf, PortfolioTestApi, startPortfolioApi } from './testing/portfolio-test-api';

interface MonitorView {
  id: string;
  name: string;
  webhook_url: string;
  grades: string[] | null;
  bbl_count: number;
  status: string;
  bbls?: string[];
  _links: Record<string, string>;
}

const PUBLIC_URL = 'https://93.184.215.14/hooks/bhis';
const BBLS = ['2012340001', '2012340002'];

describe('portfolio monitors API (real Postgres and Redis)', () => {
  let db: TestDatabase;
  let pool: Pool;
  let api: PortfolioTestApi;
  let owner: string;
  let other: string;
  let readOnly: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 2 });
    api = await startPortfolioApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix() });
    [{ key: owner }, { key: other }, { key: readOnly }] = await createKeys(db.url, [
      { name: 'owner' },
      { name: 'other' },
      { name: 'read only', scopes: ['portfolio:read'] },
    ]);
  });

  afterAll(async () => {
    await api?.close();
    await pool?.end();
    await db?.drop();
  });

  const create = (key: string, body: Record<string, unknown>) => call(api.url, key, 'POST', '/api/v1/portfolio/monitor', body);

  it('creates a monitor and returns its signing secret once', async () => {
    const res = await create(owner, { name: '  Bronx portfolio ', bbls: [...BBLS, BBLS[0]], webhook_url: PUBLIC_URL, grades: ['F', 'D', 'F'] });
    expect(res.status).toBe(201);
    const { monitor, secret } = dataOf<{ monitor: MonitorView; secret: string }>(res);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64').length).toBeGreaterThanOrEqual(24);
    expect(monitor).toMatchObject({ name: 'Bronx portfolio', webhook_url: PUBLIC_URL, grades: ['D', 'F'], bbl_count: 2, status: 'active', bbls: BBLS });
    expect(res.headers.get('location')).toBe(`${api.url}/api/v1/portfolio/monitor/${monitor.id}`);

    const read = await call(api.url, owner, 'GET', `/api/v1/portfolio/monitor/${monitor.id}`);
    expect(read.status).toBe(200);
    expect(dataOf<{ monitor: MonitorView }>(read).monitor).toMatchObject({ id: monitor.id, bbls: BBLS });
    expect(read.text).not.toContain(secret);
    expect((await call(api.url, owner, 'GET', '/api/v1/portfolio/monitor')).text).not.toContain(secret);
  });

  it('keeps monitors private to the key that created them (404 for any other key)', async () => {
    const { monitor } = dataOf<{ monitor: MonitorView }>(await create(owner, { name: 'private', bbls: BBLS, webhook_url: PUBLIC_URL }));
    for (const [method, path] of [
      ['GET', ''],
      ['DELETE', ''],
      ['POST', '/test'],
      ['GET', '/deliveries'],
      ['PATCH', ''],
      ['POST', '/rotate-secret'],
    ] as const) {
      const res = await call(api.url, other, method, `/api/v1/portfolio/monitor/${monitor.id}${path}`, method === 'PATCH' ? { name: 'taken' } : undefined);
      expect(res.status).toBe(404);
      expect(errorOf(res).code).toBe('not_found');
    }
    const list = dataOf<{ monitors: MonitorView[] }>(await call(api.url, other, 'GET', '/api/v1/portfolio/monitor'));
    expect(list.monitors).toEqual([]);
    expect((await call(api.url, owner, 'GET', `/api/v1/portfolio/monitor/${monitor.id}`)).status).toBe(200);
  });

  it('answers 400 for a malformed id and 404 for an unknown one', async () => {
    expect(errorOf(await call(api.url, owner, 'GET', '/api/v1/portfolio/monitor/not-an-id')).code).toBe('invalid_request');
    expect(errorOf(await call(api.url, owner, 'GET', '/api/v1/portfolio/monitor/00000000-0000-4000-8000-000000000000')).code).toBe('not_found');
  });

  it('paginates the list with a cursor, newest first, without gaps or duplicates', async () => {
    const [{ key }] = await createKeys(db.url, [{ name: 'pager' }]);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(dataOf<{ monitor: MonitorView }>(await create(key, { name: `m${i}`, bbls: BBLS, webhook_url: PUBLIC_URL })).monitor.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await call(api.url, key, 'GET', `/api/v1/portfolio/monitor?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...dataOf<{ monitors: MonitorView[] }>(res).monitors.map((m) => m.id));
      cursor = (res.body as { pagination: { next_cursor: string | null } }).pagination.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    expect(errorOf(await call(api.url, key, 'GET', '/api/v1/portfolio/monitor?cursor=garbage')).code).toBe('invalid_request');
    expect(errorOf(await call(api.url, key, 'GET', '/api/v1/portfolio/monitor?limit=500')).code).toBe('invalid_request');
  });

  it('validates BBLs, grades, name and the BBL count', async () => {
    const bad = await create(owner, { name: 'x', bbls: ['2012340001', '12345', '0000000000'], webhook_url: PUBLIC_URL });
    expect(errorOf(bad).code).toBe('invalid_bbl');
    expect(errorOf(bad).message).toContain('"12345"');
    expect(errorOf(bad).message).toContain('"0000000000"');
    const tooMany = await create(owner, { name: 'x', bbls: Array.from({ length: 10_001 }, () => '2012340001'), webhook_url: PUBLIC_URL });
    expect(errorOf(tooMany).code).toBe('too_many_bbls');
    expect(errorOf(await create(owner, { name: 'x', bbls: BBLS, webhook_url: PUBLIC_URL, grades: ['E'] })).message).toMatch(/grades/);
    expect(errorOf(await create(owner, { name: 'x'.repeat(101), bbls: BBLS, webhook_url: PUBLIC_URL })).message).toMatch(/name/);
    expect(errorOf(await create(owner, { name: '   ', bbls: BBLS, webhook_url: PUBLIC_URL })).message).toMatch(/name/);
    expect(errorOf(await create(owner, { name: 'x', bbls: [], webhook_url: PUBLIC_URL })).code).toBe('invalid_request');
    expect((await create(readOnly, { name: 'x', bbls: BBLS, webhook_url: PUBLIC_URL })).status).toBe(403);
  });

  it.each([
    ['http://10.0.0.1/hook', /private/],
    ['http://192.168.0.10/hook', /private/],
    ['http://127.0.0.1:8080/hook', /loopback/],
    ['http://localhost:8080/hook', /"localhost" resolves to .* loopback/],
    ['http://[::1]/hook', /loopback/],
    ['http://169.254.169.254/latest/meta-data/', /link-local/],
    ['http://[::ffff:169.254.169.254]/', /link-local/],
    ['http://100.64.0.1/hook', /carrier-grade NAT/],
    ['ftp://example.com/hook', /http or https/],
  ])('refuses the webhook URL %s (SSRF)', async (url, problem) => {
    const res = await create(owner, { name: 'ssrf', bbls: BBLS, webhook_url: url });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe('invalid_request');
    expect(errorOf(res).message).toMatch(/webhook_url/);
    expect(errorOf(res).message).toMatch(problem);
  });

  it('refuses a plain http webhook URL on a public address (https only)', async () => {
    const res = await create(owner, { name: 'plain', bbls: BBLS, webhook_url: 'http://93.184.215.14/hooks/bhis' });
    expect([res.status, errorOf(res).code]).toEqual([400, 'invalid_request']);
    expect(errorOf(res).message).toMatch(/"webhook_url" must use https/);
  });

  it('lets a key with portfolio:read alone list and read monitors, and nothing more', async () => {
    const [{ key: both }] = await createKeys(db.url, [{ name: 'reader and writer', scopes: ['portfolio:read', 'portfolio:write'] }]);
    const { monitor } = dataOf<{ monitor: MonitorView }>(await create(both, { name: 'seen', bbls: BBLS, webhook_url: PUBLIC_URL }));
    const [{ key: writer }] = await createKeys(db.url, [{ name: 'writer only', scopes: ['portfolio:write'] }]);
    expect((await call(api.url, readOnly, 'GET', '/api/v1/portfolio/monitor')).status).toBe(200);
    expect((await call(api.url, writer, 'GET', '/api/v1/portfolio/monitor')).status).toBe(403);
    expect((await call(api.url, readOnly, 'PATCH', `/api/v1/portfolio/monitor/${monitor.id}`, { name: 'x' })).status).toBe(403);
    expect((await call(api.url, readOnly, 'POST', `/api/v1/portfolio/monitor/${monitor.id}/rotate-secret`)).status).toBe(403);
    expect((await call(api.url, both, 'GET', `/api/v1/portfolio/monitor/${monitor.id}/deliveries`)).status).toBe(200);
  });

  it('changes a monitor with PATCH: the fields sent, validated as at creation', async () => {
    const { monitor } = dataOf<{ monitor: MonitorView }>(await create(owner, { name: 'to change', bbls: BBLS, webhook_url: PUBLIC_URL, grades: ['F'] }));
    const path = `/api/v1/portfolio/monitor/${monitor.id}`;
    const patch = (body: unknown) => call(api.url, owner, 'PATCH', path, body);

    const changed = await patch({ name: ' renamed ', bbls: ['2012340003', '2012340001', '2012340003'], grades: ['D', 'F', 'D'], webhook_url: 'https://93.184.215.14/other', include_uncertain: true });
    expect(changed.status).toBe(200);
    expect(dataOf<{ monitor: MonitorView }>(changed).monitor).toMatchObject({
      id: monitor.id,
      name: 'renamed',
      bbl_count: 2,
      grades: ['D', 'F'],
      webhook_url: 'https://93.184.215.14/other',
      include_uncertain: true,
      status: 'active',
    });
    expect(dataOf<{ monitor: MonitorView }>(await call(api.url, owner, 'GET', path)).monitor.bbls).toEqual(['2012340001', '2012340003']);
    expect(dataOf<{ monitor: MonitorView }>(await patch({ grades: null })).monitor).toMatchObject({ grades: null, name: 'renamed', bbl_count: 2 });

    for (const [body, code, message] of [
      [{}, 'invalid_request', /at least one/],
      [{ bbls: ['2012340001', '12345'] }, 'invalid_bbl', /"12345"/],
      [{ bbls: [] }, 'invalid_request', /bbls/],
      [{ grades: ['E'] }, 'invalid_request', /grades/],
      [{ name: '  ' }, 'invalid_request', /name/],
      [{ name: null }, 'invalid_request', /name/],
      [{ webhook_url: 'http://93.184.215.14/hook' }, 'invalid_request', /https/],
      [{ webhook_url: 'https://10.0.0.1/hook' }, 'invalid_request', /private/],
      [{ enabled: 'yes' }, 'invalid_request', /enabled/],
      [{ status: 'active' }, 'invalid_request', /status/],
    ] as const) {
      const res = await patch(body);
      expect([JSON.stringify(body), res.status, errorOf(res).code]).toEqual([JSON.stringify(body), 400, code]);
      expect(errorOf(res).message).toMatch(message);
    }
    expect(errorOf(await call(api.url, owner, 'PATCH', '/api/v1/portfolio/monitor/00000000-0000-4000-8000-000000000000', { name: 'x' })).code).toBe('not_found');
    expect(dataOf<{ monitor: MonitorView }>(await call(api.url, owner, 'GET', path)).monitor).toMatchObject({ name: 'renamed', bbl_count: 2 });
  });

  it('disables a monitor (pending deliveries cancelled) and enables it again', async () => {
    const { monitor } = dataOf<{ monitor: MonitorView }>(await create(owner, { name: 'pause me', bbls: BBLS, webhook_url: PUBLIC_URL }));
    const path = `/api/v1/portfolio/monitor/${monitor.id}`;
    expect((await call(api.url, owner, 'POST', `${path}/test`)).status).toBe(202);
    const off = await call(api.url, owner, 'PATCH', path, { enabled: false });
    expect(dataOf<{ monitor: MonitorView & { disabled_reason: string } }>(off).monitor).toMatchObject({ status: 'disabled', disabled_reason: 'Disabled through the API.' });
    const { rows } = await pool.query(`SELECT status FROM webhook_deliveries WHERE monitor_id = $1`, [monitor.id]);
    expect(rows).toEqual([{ status: 'cancelled' }]);
    expect(errorOf(await call(api.url, owner, 'POST', `${path}/test`)).code).toBe('invalid_request');
    const on = await call(api.url, owner, 'PATCH', path, { enabled: true });
    expect(dataOf<{ monitor: MonitorView & { disabled_reason: string | null } }>(on).monitor).toMatchObject({ status: 'active', disabled_reason: null });
    expect((await call(api.url, owner, 'POST', `${path}/test`)).status).toBe(202);
  });

  it('prices a PATCH by the BBLs it sends and takes 10,000 of them', async () => {
    const [{ key }] = await createKeys(db.url, [{ name: 'big patch' }]);
    const { monitor } = dataOf<{ monitor: MonitorView }>(await create(key, { name: 'grow', bbls: BBLS, webhook_url: PUBLIC_URL }));
    const bbls = Array.from({ length: 10_000 }, (_, i) => `3${String(1 + Math.floor(i / 100)).padStart(5, '0')}${String(1 + (i % 100)).padStart(4, '0')}`);
    const grown = await call(api.url, key, 'PATCH', `/api/v1/portfolio/monitor/${monitor.id}`, { bbls });
    expect([grown.status, grown.headers.get('x-ratelimit-cost')]).toEqual([200, '100']);
    expect(dataOf<{ monitor: MonitorView }>(grown).monitor.bbl_count).toBe(10_000);
    const renamed = await call(api.url, key, 'PATCH', `/api/v1/portfolio/monitor/${monitor.id}`, { name: 'grown' });
    expect([renamed.status, renamed.headers.get('x-ratelimit-cost')]).toEqual([200, '1']);
    const tooMany = await call(api.url, key, 'PATCH', `/api/v1/portfolio/monitor/${monitor.id}`, { bbls: [...bbls, '4000010001'] });
    expect(errorOf(tooMany).code).toBe('too_many_bbls');
  });

  it('rotates the signing secret: a new one shown once, the old one kept for the overlap', async () => {
    const created = dataOf<{ monitor: MonitorView; secret: string }>(await create(owner, { name: 'rotate', bbls: BBLS, webhook_url: PUBLIC_URL }));
    const path = `/api/v1/portfolio/monitor/${created.monitor.id}`;
    const res = await call(api.url, owner, 'POST', `${path}/rotate-secret`);
    expect(res.status).toBe(200);
    const rotated = dataOf<{ monitor: MonitorView & { previous_secret_expires_at: string }; secret: string }>(res);
    expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(rotated.secret).not.toBe(created.secret);
    const expires = Date.parse(rotated.monitor.previous_secret_expires_at) - Date.now();
    expect(expires).toBeGreaterThan(86_400_000 - 60_000);
    expect(expires).toBeLessThanOrEqual(86_400_000);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect((await call(api.url, owner, 'GET', path)).text).not.toContain(rotated.secret);

    const short = dataOf<{ monitor: { previous_secret_expires_at: string | null } }>(await call(api.url, owner, 'POST', `${path}/rotate-secret`, { overlap_seconds: 0 }));
    expect(short.monitor.previous_secret_expires_at).toBeNull();
    expect(errorOf(await call(api.url, owner, 'POST', `${path}/rotate-secret`, { overlap_seconds: 604_801 })).code).toBe('invalid_request');
    expect(errorOf(await call(api.url, owner, 'POST', `${path}/rotate-secret`, { overlap_seconds: 1.5 })).code).toBe('invalid_request');
  });

  it('queues a signed test event through the outbox and lists deliveries', async () => {
    const { monitor } = dataOf<{ monitor: MonitorView }>(await create(owner, { name: 'test me', bbls: BBLS, webhook_url: PUBLIC_URL }));
    const res = await call(api.url, owner, 'POST', `/api/v1/portfolio/monitor/${monitor.id}/test`);
    expect(res.status).toBe(202);
    const { delivery } = dataOf<{ delivery: { id: string; webhook_id: string; event_type: string; status: string } }>(res);
    expect(delivery).toMatchObject({ event_type: 'monitor.test', status: 'pending', webhook_id: expect.stringMatching(/^msg_[0-9a-f]{32}$/) });

    const { rows } = await pool.query(`SELECT payload FROM webhook_deliveries WHERE id = $1`, [delivery.id]);
    expect(JSON.parse(rows[0].payload)).toMatchObject({ type: 'monitor.test', data: { monitor_id: monitor.id } });

    const list = await call(api.url, owner, 'GET', `/api/v1/portfolio/monitor/${monitor.id}/deliveries`);
    expect(list.status).toBe(200);
    const { deliveries } = dataOf<{ deliveries: { id: string; status: string; attempt_log: unknown[] }[] }>(list);
    expect(deliveries).toEqual([expect.objectContaining({ id: delivery.id, status: 'pending', attempt_log: [] })]);
  });

  it('deletes a monitor', async () => {
    const { monitor } = dataOf<{ monitor: MonitorView }>(await create(owner, { name: 'delete me', bbls: BBLS, webhook_url: PUBLIC_URL }));
    const res = await call(api.url, owner, 'DELETE', `/api/v1/portfolio/monitor/${monitor.id}`);
    expect(res.status).toBe(200);
    expect(dataOf(res)).toEqual({ id: monitor.id, deleted: true });
    expect((await call(api.url, owner, 'GET', `/api/v1/portfolio/monitor/${monitor.id}`)).status).toBe(404);
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM monitor_buildings WHERE monitor_id = $1`, [monitor.id]);
    expect(rows[0].n).toBe(0);
  });

  it('caps the monitors of one key at 100, with a clear error; deleting one frees a place', async () => {
    const [{ key: busy }] = await createKeys(db.url, [{ name: 'busy' }]);
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) {
      const res = await create(busy, { name: `m${i}`, bbls: BBLS, webhook_url: PUBLIC_URL });
      expect(res.status).toBe(201);
      ids.push(dataOf<{ monitor: MonitorView }>(res).monitor.id);
    }
    const refused = await create(busy, { name: 'one too many', bbls: BBLS, webhook_url: PUBLIC_URL });
    expect(refused.status).toBe(400);
    expect(errorOf(refused)).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/at most 100 monitors/) });
    expect(refused.body).toMatchObject({ error: { details: { limit: 100 } } });
    // another key is not affected
    expect((await create(other, { name: 'unaffected', bbls: BBLS, webhook_url: PUBLIC_URL })).status).toBe(201);
    expect((await call(api.url, busy, 'DELETE', `/api/v1/portfolio/monitor/${ids[0]}`)).status).toBe(200);
    expect((await create(busy, { name: 'after a delete', bbls: BBLS, webhook_url: PUBLIC_URL })).status).toBe(201);
  }, 60_000);

  it('prices a monitor by its BBLs (create and delete: 1 unit per 100) and pages its BBLs when read', async () => {
    const [{ key }] = await createKeys(db.url, [{ name: 'big monitor' }]);
    const bbls = Array.from({ length: 10_000 }, (_, i) => `1${String(1 + Math.floor(i / 100)).padStart(5, '0')}${String(1 + (i % 100)).padStart(4, '0')}`);
    const created = await create(key, { name: 'big', bbls, webhook_url: PUBLIC_URL });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-ratelimit-cost')).toBe('100');
    const { monitor } = dataOf<{ monitor: MonitorView }>(created);
    expect(monitor.bbl_count).toBe(10_000);

    const first = await call(api.url, key, 'GET', `/api/v1/portfolio/monitor/${monitor.id}`);
    expect(first.headers.get('x-ratelimit-cost')).toBe('1');
    const page = dataOf<{ monitor: MonitorView }>(first).monitor;
    expect(page).toMatchObject({ id: monitor.id, bbl_count: 10_000, name: 'big', status: 'active' });
    expect(page.bbls).toEqual(bbls.slice(0, 1000));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await call(api.url, key, 'GET', `/api/v1/portfolio/monitor/${monitor.id}?limit=750${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...(dataOf<{ monitor: MonitorView }>(res).monitor.bbls ?? []));
      const pagination = (res.body as { pagination: { limit: number; has_more: boolean; next_cursor: string | null } }).pagination;
      expect(pagination.limit).toBe(750);
      cursor = pagination.next_cursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(14);
    expect(seen).toEqual(bbls);
    expect(errorOf(await call(api.url, key, 'GET', `/api/v1/portfolio/monitor/${monitor.id}?cursor=garbage`)).code).toBe('invalid_request');
    expect(errorOf(await call(api.url, key, 'GET', `/api/v1/portfolio/monitor/${monitor.id}?limit=1001`)).code).toBe('invalid_request');

    const small = dataOf<{ monitor: MonitorView }>(await create(key, { name: 'small', bbls: BBLS, webhook_url: PUBLIC_URL })).monitor;
    const smallRead = await call(api.url, key, 'GET', `/api/v1/portfolio/monitor/${small.id}`);
    expect(smallRead.body).toMatchObject({ data: { monitor: { bbls: BBLS } }, pagination: { limit: 1000, has_more: false, next_cursor: null } });
    expect((await call(api.url, key, 'DELETE', `/api/v1/portfolio/monitor/${small.id}`)).headers.get('x-ratelimit-cost')).toBe('1');
    const deleted = await call(api.url, key, 'DELETE', `/api/v1/portfolio/monitor/${monitor.id}`);
    expect([deleted.status, deleted.headers.get('x-ratelimit-cost')]).toEqual([200, '100']);
  });

  it('refuses a delete whose BBLs the key cannot pay for, and keeps the monitor', async () => {
    const [{ key }] = await createKeys(db.url, [{ name: 'poor', rateLimitPerMin: 150 }]);
    const bbls = Array.from({ length: 10_000 }, (_, i) => `2${String(1 + Math.floor(i / 100)).padStart(5, '0')}${String(1 + (i % 100)).padStart(4, '0')}`);
    const { monitor } = dataOf<{ monitor: MonitorView }>(await create(key, { name: 'costly', bbls, webhook_url: PUBLIC_URL }));
    const refused = await call(api.url, key, 'DELETE', `/api/v1/portfolio/monitor/${monitor.id}`);
    expect([refused.status, errorOf(refused).code]).toEqual([429, 'rate_limit_exceeded']);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await pool.query(`SELECT bbl_count FROM monitors WHERE id = $1`, [monitor.id])).rows).toEqual([{ bbl_count: 10_000 }]);
  });

  it('limits monitor creations to 200 per key and hour, whatever is deleted meanwhile', async () => {
    const [{ key: churner }] = await createKeys(db.url, [{ name: 'churner' }]);
    for (let i = 0; i < 200; i++) {
      const res = await create(churner, { name: `c${i}`, bbls: BBLS, webhook_url: PUBLIC_URL });
      expect(res.status).toBe(201);
      const { monitor } = dataOf<{ monitor: MonitorView }>(res);
      expect((await call(api.url, churner, 'DELETE', `/api/v1/portfolio/monitor/${monitor.id}`)).status).toBe(200);
    }
    const refused = await create(churner, { name: 'one more', bbls: BBLS, webhook_url: PUBLIC_URL });
    expect([refused.status, errorOf(refused).code]).toEqual([429, 'rate_limit_exceeded']);
    expect(errorOf(refused).message).toMatch(/200 monitors .* per key and hour/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect((await create(other, { name: 'unaffected', bbls: BBLS, webhook_url: PUBLIC_URL })).status).toBe(201);
  }, 120_000);

  it('meters test deliveries: 12 units each, at most 5 per monitor and minute', async () => {
    const [{ key }] = await createKeys(db.url, [{ name: 'tester' }]);
    const [a, b] = await Promise.all(['a', 'b'].map(async (name) => dataOf<{ monitor: MonitorView }>(await create(key, { name, bbls: BBLS, webhook_url: PUBLIC_URL })).monitor));
    const test = (id: string) => call(api.url, key, 'POST', `/api/v1/portfolio/monitor/${id}/test`);
    for (let i = 0; i < 5; i++) {
      const res = await test(a!.id);
      expect([res.status, res.headers.get('x-ratelimit-cost')]).toEqual([202, '12']);
    }
    const refused = await test(a!.id);
    expect([refused.status, errorOf(refused).code]).toEqual([429, 'rate_limit_exceeded']);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect((await test(b!.id)).status).toBe(202);
    const { rows } = await pool.query(`SELECT monitor_id, count(*)::int AS n FROM webhook_deliveries WHERE monitor_id = ANY($1::uuid[]) GROUP BY monitor_id ORDER BY n DESC`, [[a!.id, b!.id]]);
    expect(rows).toEqual([{ monitor_id: a!.id, n: 5 }, { monitor_id: b!.id, n: 1 }]);
  });

  it('accepts loopback targets only when WEBHOOK_ALLOW_LOOPBACK is set', async () => {
    const local = await startPortfolioApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix(), WEBHOOK_ALLOW_LOOPBACK: 'true' });
    try {
      const ok = await call(local.url, owner, 'POST', '/api/v1/portfolio/monitor', { name: 'local', bbls: BBLS, webhook_url: 'http://127.0.0.1:9999/hook' });
      expect(ok.status).toBe(201);
      const viaName = await call(local.url, owner, 'POST', '/api/v1/portfolio/monitor', { name: 'local', bbls: BBLS, webhook_url: 'http://localhost:9999/hook' });
      expect(viaName.status).toBe(201);
      const stillPrivate = await call(local.url, owner, 'POST', '/api/v1/portfolio/monitor', { name: 'lan', bbls: BBLS, webhook_url: 'http://10.1.1.1/hook' });
      expect(stillPrivate.status).toBe(400);
    } finally {
      await local.close();
    }
  });
});
