import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { createTestDatabase, TestDatabase, testRedisPrefix } from '@bhis/testing';
import { createTestKey, startTestApi, TestApi } from './testing/test-api';

interface Body {
  data: Record<string, unknown> & { run_id: string };
  error: { code: string; message: string };
  _links: Record<string, string>;
}

const json = async (res: Response): Promise<Body> => (await res.json()) as Body;

const FIXTURE = path.resolve(__dirname, '../../../../shared/fixtures/nyc-open-data/hpd_litigations.csv');

describe('admin endpoints and the queue dashboard', () => {
  let db: TestDatabase;
  let api: TestApi;
  let dataDir: string;
  let admin: string;
  let live: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    dataDir = mkdtempSync(path.join(tmpdir(), 'bhis-admin-'));
    copyFileSync(FIXTURE, path.join(dataDir, 'hpd_litigations.csv'));
    api = await startTestApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix(), DATA_DIR: dataDir });
    admin = (await createTestKey(db.url, { scopes: ['admin'] })).key;
    live = (await createTestKey(db.url)).key;
  });

  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  const post = (route: string, key: string, body: unknown) =>
    fetch(`${api.url}${route}`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const get = (route: string, key: string) => fetch(`${api.url}${route}`, { headers: { Authorization: `Bearer ${key}` } });

  it('needs the admin scope', async () => {
    const res = await post('/api/v1/admin/ingest', live, { source: 'hpd_litigations', download: true });
    expect(res.status).toBe(403);
    expect((await json(res)).error.message).toContain('"admin"');
  });

  it('queues an ingest of a file in the data directory, once, and shows its run', async () => {
    const first = await post('/api/v1/admin/ingest', admin, { source: 'hpd_litigations', file: 'hpd_litigations.csv' });
    expect(first.status).toBe(202);
    const body = await json(first);
    expect(body.data).toEqual({ run_id: expect.any(String), job_id: expect.stringMatching(/^ingest\.hpd_litigations\./), created: true });
    expect(body._links.self).toBe(`${api.url}/api/v1/admin/ingest/${body.data.run_id}`);

    const again = await json(await post('/api/v1/admin/ingest', admin, { source: 'hpd_litigations', file: 'hpd_litigations.csv' }));
    expect(again.data).toEqual({ ...body.data, created: false });

    const run = await get(`/api/v1/admin/ingest/${body.data.run_id}`, admin);
    expect(run.status).toBe(200);
    expect((await json(run)).data).toEqual(expect.objectContaining({ id: body.data.run_id, source: 'hpd_litigations', status: 'queued', trigger: 'admin_api' }));
  });

  it.each([
    [{ source: 'hpd_litigations' }, /exactly one of/],
    [{ source: 'hpd_litigations', file: 'x.csv', download: true }, /exactly one of/],
    [{ source: 'no_such_source', download: true }, /Unknown source/],
    [{ source: 'hpd_litigations', file: '../../etc/passwd' }, /inside the server's data directory/],
    [{ source: 'hpd_litigations', url: 'ftp://example.org/x.csv' }, /"url" must be an http\(s\) URL/],
    [{ source: 'hpd_litigations', download: true, extra: 1 }, /extra/],
    [{ source: 'hpd_litigations', url: 'http://127.0.0.1:5432/x.csv' }, /configured source hosts/],
    [{ source: 'hpd_litigations', url: 'http://169.254.169.254/latest/meta-data' }, /configured source hosts/],
    [{ source: 'hpd_litigations', url: 'http://localhost/x.csv' }, /configured source hosts/],
    [{ source: 'hpd_litigations', url: 'https://evil.example/x.csv' }, /configured source hosts/],
  ])('refuses %j with 400', async (body, message) => {
    const res = await post('/api/v1/admin/ingest', admin, body);
    expect(res.status).toBe(400);
    expect((await json(res)).error).toEqual(expect.objectContaining({ code: 'invalid_request', message: expect.stringMatching(message) }));
  });

  it('queues scoring runs and shows them; unknown and malformed run ids are 404 and 400', async () => {
    const res = await post('/api/v1/admin/score', admin, { full: true });
    expect(res.status).toBe(202);
    const { data } = await json(res);
    const run = await json(await get(`/api/v1/admin/score/${data.run_id}`, admin));
    expect(run.data).toEqual(expect.objectContaining({ id: data.run_id, kind: 'full', status: 'queued', trigger: 'admin_api' }));
    expect((await get('/api/v1/admin/score/00000000-0000-4000-8000-000000000000', admin)).status).toBe(404);
    expect((await get('/api/v1/admin/score/not-a-uuid', admin)).status).toBe(400);
    expect((await post('/api/v1/admin/score', admin, { bbls: ['123'] })).status).toBe(400);
  });

  it('lists the runs newest first, by source and status, a page at a time with a Link header', async () => {
    for (const force of [true, true, true]) await post('/api/v1/admin/ingest', admin, { source: 'hpd_litigations', file: 'hpd_litigations.csv', force });
    const first = await get('/api/v1/admin/ingest?source=hpd_litigations&status=queued&limit=2', admin);
    expect(first.status).toBe(200);
    const page = (await first.json()) as { data: { runs: { id: string; source: string; status: string; queued_at: string }[] }; pagination: { has_more: boolean; next_cursor: string }; _links: { next: string } };
    expect(page.data.runs).toHaveLength(2);
    expect(page.data.runs.every((r) => r.source === 'hpd_litigations' && r.status === 'queued')).toBe(true);
    expect(page.pagination.has_more).toBe(true);
    expect(first.headers.get('link')).toBe(`<${page._links.next}>; rel="next"`);
    const second = (await (await get(page._links.next.replace(api.url, ''), admin)).json()) as typeof page;
    const ids = [...page.data.runs, ...second.data.runs].map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    const times = [...page.data.runs, ...second.data.runs].map((r) => r.queued_at);
    expect([...times].sort().reverse()).toEqual(times);
    // a cursor is bound to its filters, and checked
    expect((await get(`/api/v1/admin/ingest?status=failed&cursor=${page.pagination.next_cursor}`, admin)).status).toBe(400);
    expect((await json(await get('/api/v1/admin/ingest?cursor=bm90IGEgY3Vyc29y', admin))).error.code).toBe('invalid_request');
    expect((await json(await get('/api/v1/admin/ingest?status=exploded', admin))).error.message).toMatch(/"status" must be one of queued, .*cancelled/);
    expect((await get('/api/v1/admin/ingest', live)).status).toBe(403);
  });

  it('cancels a queued run and removes its job; an ended run is a conflict, an unknown one not found', async () => {
    const queued = await json(await post('/api/v1/admin/ingest', admin, { source: 'hpd_litigations', file: 'hpd_litigations.csv', force: true }));
    const cancel = await post(`/api/v1/admin/ingest/${queued.data.run_id}/cancel`, admin, {});
    expect(cancel.status).toBe(200);
    expect((await json(cancel)).data).toEqual(expect.objectContaining({ run_id: queued.data.run_id, status: 'cancelled' }));
    const run = await json(await get(`/api/v1/admin/ingest/${queued.data.run_id}`, admin));
    expect(run.data).toEqual(expect.objectContaining({ status: 'cancelled', progress: { phase: 'done' } }));
    const jobs = await fetch(`${api.url}/admin/queues/api/queues?activeQueue=ingest&status=waiting`, { headers: { Authorization: `Bearer ${admin}` } });
    expect(await jobs.text()).not.toContain(queued.data.run_id);
    const again = await post(`/api/v1/admin/ingest/${queued.data.run_id}/cancel`, admin, {});
    expect(again.status).toBe(409);
    expect((await json(again)).error).toEqual(expect.objectContaining({ code: 'conflict', message: expect.stringContaining('cancelled') }));
    expect((await post('/api/v1/admin/ingest/00000000-0000-4000-8000-000000000000/cancel', admin, {})).status).toBe(404);
    expect((await post(`/api/v1/admin/ingest/${queued.data.run_id}/cancel`, live, {})).status).toBe(403);
  });

  it("lists a run's quarantined rows in file order, by reason", async () => {
    const queued = await json(await post('/api/v1/admin/ingest', admin, { source: 'hpd_litigations', file: 'hpd_litigations.csv', force: true }));
    const pool = new Pool({ connectionString: db.url, max: 1 });
    try {
      await pool.query(
        `INSERT INTO rejected_rows (run_id, source, line_number, reason, raw)
         SELECT $1, 'hpd_litigations', n, CASE WHEN n % 2 = 0 THEN 'missing_record_key' ELSE 'wrong_column_count' END, 'raw line ' || n FROM generate_series(2, 8) n`,
        [queued.data.run_id],
      );
    } finally {
      await pool.end();
    }
    const first = await get(`/api/v1/admin/ingest/${queued.data.run_id}/rejected?reason=missing_record_key&limit=2`, admin);
    const page = (await first.json()) as { data: { rows: { line_number: number; reason: string; raw: string }[] }; _links: { next: string } };
    expect(page.data.rows).toEqual([
      expect.objectContaining({ line_number: 2, reason: 'missing_record_key', raw: 'raw line 2' }),
      expect.objectContaining({ line_number: 4, reason: 'missing_record_key' }),
    ]);
    const rest = (await (await get(page._links.next.replace(api.url, ''), admin)).json()) as typeof page;
    expect(rest.data.rows.map((r) => r.line_number)).toEqual([6, 8]);
    expect((await get(`/api/v1/admin/ingest/${queued.data.run_id}/rejected?cursor=abc`, admin)).status).toBe(400);
  });

  it('queues a file as the whole data set with "complete", never a download', async () => {
    const res = await post('/api/v1/admin/ingest', admin, { source: 'hpd_litigations', file: 'hpd_litigations.csv', complete: true });
    expect(res.status).toBe(202);
    const run = await json(await get(`/api/v1/admin/ingest/${(await json(res)).data.run_id}`, admin));
    expect(run.data.input).toMatch(/\(complete\)$/);
    const download = await post('/api/v1/admin/ingest', admin, { source: 'hpd_litigations', download: true, complete: true });
    expect(download.status).toBe(400);
    expect((await json(download)).error.message).toMatch(/"complete" goes with "url" or "file"/);
  });

  it('refuses a source host whose address is not public', async () => {
    const local = await startTestApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix(), DATA_DIR: dataDir, INGEST_URL_HOSTS: 'localhost,10.0.0.7' });
    try {
      for (const url of ['http://localhost/x.csv', 'http://10.0.0.7/x.csv']) {
        const res = await fetch(`${local.url}/api/v1/admin/ingest`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ source: 'hpd_litigations', url }),
        });
        expect(res.status).toBe(400);
        expect((await json(res)).error.message).toMatch(/downloads may only target public addresses/);
      }
    } finally {
      await local.close();
    }
  });

  it('serves the queue dashboard read-only, without stack traces, paths or job internals', async () => {
    const failing = await fetch(`${api.url}/api/v1/admin/ingest`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ source: 'hpd_litigations', file: 'hpd_litigations.csv', force: true }),
    });
    expect(failing.status).toBe(202);
    const auth = { Authorization: `Bearer ${admin}` };
    const list = await fetch(`${api.url}/admin/queues/api/queues?activeQueue=ingest&status=latest`, { headers: auth });
    expect(list.status).toBe(200);
    const text = await list.text();
    expect(text).toContain('hpd_litigations');
    expect(text).not.toContain(dataDir);
    expect(text).not.toMatch(/hpd_litigations\.csv/);
    for (const [method, route] of [
      ['PUT', '/admin/queues/api/queues/ingest/retry/failed'],
      ['PUT', '/admin/queues/api/queues/ingest/clean/completed'],
      ['PUT', '/admin/queues/api/queues/ingest/empty'],
      ['POST', '/admin/queues/api/queues/ingest/add'],
    ]) {
      expect([route, (await fetch(`${api.url}${route}`, { method, headers: auth })).status]).toEqual([route, 405]);
    }
    for (const route of ['/admin/queues/api/redis/stats', '/admin/queues/api/queues/ingest/workers']) {
      expect([route, (await fetch(`${api.url}${route}`, { headers: auth })).status]).toEqual([route, 404]);
    }
    const limited = await fetch(`${api.url}/admin/queues`, { headers: auth });
    expect(limited.headers.get('x-ratelimit-limit')).toBe('6000');
  });

  it('protects the queue dashboard with an admin key (HTTP Basic password or Bearer)', async () => {
    const anonymous = await fetch(`${api.url}/admin/queues`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic/);
    const basic = (key: string) => ({ headers: { Authorization: `Basic ${Buffer.from(`admin:${key}`).toString('base64')}` } });
    expect((await fetch(`${api.url}/admin/queues`, basic(live))).status).toBe(401);
    const page = await fetch(`${api.url}/admin/queues`, basic(admin));
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<html/i);
    const queues = await fetch(`${api.url}/admin/queues/api/queues`, { headers: { Authorization: `Bearer ${admin}` } });
    expect(queues.status).toBe(200);
    const names = ((await queues.json()) as { queues: { name: string }[] }).queues.map((q) => q.name).sort();
    expect(names).toEqual(['ingest', 'scoring', 'webhooks']);
  });
});
