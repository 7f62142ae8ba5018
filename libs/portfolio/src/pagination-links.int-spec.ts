import { createTestDatabase, TestDatabase, testRedisPrefix } from '@bhis/testing';
import { call, createKeys, dataOf, PortfolioTestApi, startPortfolioApi } from './testing/portfolio-test-api';

const WEBHOOK_URL = 'https://93.184.215.14/hooks/bhis';
const BBLS = ['2012340001', '2012340002', '2012340003'];

/** The envelopes the controllers return (the monitors' pages) link their next page like the read endpoints. */
describe('next-page links of returned envelopes (real Postgres and Redis)', () => {
  let db: TestDatabase;
  let api: PortfolioTestApi;
  let key: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    api = await startPortfolioApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix() });
    [{ key }] = await createKeys(db.url, [{ name: 'pager' }]);
  });

  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  type Page = { body: { pagination: { next_cursor: string | null }; _links: Record<string, string> }; headers: Headers };

  it('gives a page with a next one _links.next and a Link header, with its parameters kept, and the last page neither', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const created = await call(api.url, key, 'POST', '/api/v1/portfolio/monitor', { name: `m${i}`, bbls: BBLS, webhook_url: WEBHOOK_URL });
      expect(created.status).toBe(201);
      ids.push(dataOf<{ monitor: { id: string } }>(created).monitor.id);
    }
    const seen: string[] = [];
    let res = (await call(api.url, key, 'GET', '/api/v1/portfolio/monitor?limit=2')) as unknown as Page;
    const first = new URL(res.body._links.next as string);
    expect(`${first.origin}${first.pathname}`).toBe(`${api.url}/api/v1/portfolio/monitor`);
    expect(Object.fromEntries(first.searchParams)).toEqual({ limit: '2', cursor: res.body.pagination.next_cursor });
    expect(res.body._links.self).toBe(`${api.url}/api/v1/portfolio/monitor`);
    for (;;) {
      seen.push(...dataOf<{ monitors: { id: string }[] }>(res as never).monitors.map((m) => m.id));
      const next = res.body._links.next;
      if (next === undefined) break;
      expect(res.headers.get('link')).toBe(`<${next}>; rel="next"`);
      res = (await call(api.url, key, 'GET', next.slice(api.url.length))) as unknown as Page;
    }
    expect(seen).toEqual([...ids].reverse());
    expect(res.body.pagination.next_cursor).toBeNull();
    expect(res.headers.get('link')).toBeNull();

    // a monitor's BBLs, paged
    const bbls = (await call(api.url, key, 'GET', `/api/v1/portfolio/monitor/${ids[0]}?limit=2`)) as unknown as Page;
    expect(bbls.headers.get('link')).toBe(`<${bbls.body._links.next}>; rel="next"`);
    expect(new URL(bbls.body._links.next as string).searchParams.get('cursor')).toBe(bbls.body.pagination.next_cursor);
    const last = (await call(api.url, key, 'GET', (bbls.body._links.next as string).slice(api.url.length))) as unknown as Page;
    expect(last.body._links.next).toBeUndefined();
    expect(last.body._links.self).toBe(bbls.body._links.self);
  });
});
