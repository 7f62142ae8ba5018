import { Pool } from 'pg';
import { createTestDatabase, TestDatabase, testRedisPrefix } from '@bhis/testing';
import { followPortfolios } from '@bhis/webhooks';
import { seedBuildings } from './testing/seed-buildings';
import { call, createKeys, dataOf, errorOf, PortfolioTestApi, startPortfolioApi } from './testing/portfolio-test-api';

const HOOK = 'https://93.184.215.14/hooks/bhis';
const OWNED = ['3005120010', '3005120011', '3005120012'];
const LATER = '3005120013';

interface MonitorView {
  id: string;
  bbl_count: number;
  portfolio_id: string | null;
  bbls?: string[];
  _links: Record<string, string>;
}

/**
 * Analysis and monitors of a landlord portfolio (`portfolio_id`), over portfolios written as the
 * rebuild writes them; the rebuild itself, with registrations changed, is libs/ingestion/src/portfolio-monitors.int-spec.ts.
 */
describe('portfolio_id in place of a BBL list (real Postgres and Redis)', () => {
  let db: TestDatabase;
  let pool: Pool;
  let api: PortfolioTestApi;
  let key: string;

  const setPortfolio = async (id: string, bbls: string[]) => {
    await pool.query(`DELETE FROM building_portfolios WHERE portfolio_id = $1 OR bbl = ANY($2::text[])`, [id, bbls]);
    await pool.query(`DELETE FROM owner_portfolios WHERE id = $1`, [id]);
    await pool.query(`INSERT INTO owner_portfolios (id, buildings, registrations, links, caution) VALUES ($1, $2, $2, '[]', NULL)`, [id, bbls.length]);
    await pool.query(`INSERT INTO building_portfolios (bbl, portfolio_id) SELECT unnest($1::text[]), $2`, [bbls, id]);
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 2 });
    await seedBuildings(pool, [
      { bbl: OWNED[0]!, units: 10, score: { total: 80, grade: 'F' } },
      { bbl: OWNED[1]!, units: 20, score: { total: 20, grade: 'B' } },
      { bbl: OWNED[2]!, units: 30, score: { total: 45, grade: 'C' } },
      { bbl: LATER, units: 5, score: { total: 70, grade: 'D' } },
    ]);
    await setPortfolio('pf_331931', OWNED);
    api = await startPortfolioApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix() });
    [{ key }] = await createKeys(db.url, [{ name: 'portfolio user' }]);
  });

  afterAll(async () => {
    await api?.close();
    await pool?.end();
    await db?.drop();
  });

  it("analyses a portfolio's buildings by its id, as the same BBL list would be", async () => {
    const byId = await call(api.url, key, 'POST', '/api/v1/portfolio/analyze', { portfolio_id: 'pf_331931' });
    expect(byId.status).toBe(200);
    const byList = await call(api.url, key, 'POST', '/api/v1/portfolio/analyze', { bbls: OWNED });
    expect(dataOf(byId)).toEqual(dataOf(byList));
    expect(dataOf<{ summary: { found: number; residential_units: number } }>(byId).summary).toMatchObject({ found: 3, residential_units: 60 });
  });

  it.each([
    ['/api/v1/portfolio/analyze', {}],
    ['/api/v1/portfolio/monitor', { name: 'm', webhook_url: HOOK }],
  ])('answers %s with 404 portfolio_not_found for an unknown id, and 400 for both or neither target', async (path, rest) => {
    for (const id of ['pf_999999', 'pf_x', 'nope']) {
      const res = await call(api.url, key, 'POST', path, { ...rest, portfolio_id: id });
      expect([res.status, errorOf(res).code]).toEqual([404, 'portfolio_not_found']);
    }
    expect(errorOf(await call(api.url, key, 'POST', path, { ...rest, portfolio_id: 'pf_331931', bbls: OWNED })).code).toBe('invalid_request');
    expect(errorOf(await call(api.url, key, 'POST', path, rest)).code).toBe('invalid_request');
    expect(errorOf(await call(api.url, key, 'POST', path, { ...rest, portfolio_id: 331931 })).code).toBe('invalid_request');
  });

  it("charges a portfolio by its buildings, as the BBL list would be", async () => {
    const many = Array.from({ length: 250 }, (_, i) => `4${String(100 + Math.floor(i / 100)).padStart(5, '0')}${String(1 + (i % 100)).padStart(4, '0')}`);
    await setPortfolio('pf_500001', many);
    const analysis = await call(api.url, key, 'POST', '/api/v1/portfolio/analyze', { portfolio_id: 'pf_500001' });
    expect([analysis.status, analysis.headers.get('x-ratelimit-cost')]).toEqual([200, '5']);
    const bigger = Array.from({ length: 1_001 }, (_, i) => `4${String(200 + Math.floor(i / 100)).padStart(5, '0')}${String(1 + (i % 100)).padStart(4, '0')}`);
    await setPortfolio('pf_500002', bigger);
    expect((await call(api.url, key, 'POST', '/api/v1/portfolio/analyze', { portfolio_id: 'pf_500002' })).headers.get('x-ratelimit-cost')).toBe('11');
    const monitor = await call(api.url, key, 'POST', '/api/v1/portfolio/monitor', { name: 'big owner', webhook_url: HOOK, portfolio_id: 'pf_500002' });
    expect([monitor.status, monitor.headers.get('x-ratelimit-cost')]).toEqual([201, '11']);
  });

  it('creates a monitor that follows a portfolio: its buildings are set again from the portfolio after a rebuild', async () => {
    const created = await call(api.url, key, 'POST', '/api/v1/portfolio/monitor', { name: 'landlord', webhook_url: HOOK, portfolio_id: 'pf_331931', grades: ['D', 'F'] });
    expect(created.status).toBe(201);
    const { monitor } = dataOf<{ monitor: MonitorView }>(created);
    expect(monitor).toMatchObject({ portfolio_id: 'pf_331931', bbl_count: 3, bbls: OWNED });
    expect(monitor._links['portfolio']).toBe(`${api.url}/api/v1/portfolios/pf_331931`);

    // the portfolio gains a building and loses one, as a rebuild writes it
    await setPortfolio('pf_331931', [OWNED[0]!, OWNED[2]!, LATER]);
    await followPortfolios(pool);
    const read = dataOf<{ monitor: MonitorView }>(await call(api.url, key, 'GET', `/api/v1/portfolio/monitor/${monitor.id}`)).monitor;
    expect(read).toMatchObject({ portfolio_id: 'pf_331931', bbl_count: 3, bbls: [OWNED[0], OWNED[2], LATER] });

    // its id is gone (the lowest registration lapsed): the monitor follows the portfolio holding its buildings
    await pool.query(`DELETE FROM building_portfolios WHERE portfolio_id = 'pf_331931'`);
    await pool.query(`DELETE FROM owner_portfolios WHERE id = 'pf_331931'`);
    await setPortfolio('pf_331940', [OWNED[2]!, LATER]);
    await followPortfolios(pool);
    const moved = dataOf<{ monitor: MonitorView }>(await call(api.url, key, 'GET', `/api/v1/portfolio/monitor/${monitor.id}`)).monitor;
    expect(moved).toMatchObject({ portfolio_id: 'pf_331940', bbl_count: 2, bbls: [OWNED[2], LATER] });

    // a fixed list stops the following; portfolio_id starts it again
    const fixed = dataOf<{ monitor: MonitorView }>(await call(api.url, key, 'PATCH', `/api/v1/portfolio/monitor/${monitor.id}`, { bbls: [OWNED[1]] })).monitor;
    expect(fixed).toMatchObject({ portfolio_id: null, bbl_count: 1 });
    expect(fixed._links['portfolio']).toBeUndefined();
    await setPortfolio('pf_331940', [OWNED[0]!, OWNED[2]!, LATER]);
    await followPortfolios(pool);
    expect(dataOf<{ monitor: MonitorView }>(await call(api.url, key, 'GET', `/api/v1/portfolio/monitor/${monitor.id}`)).monitor.bbls).toEqual([OWNED[1]]);
    const again = await call(api.url, key, 'PATCH', `/api/v1/portfolio/monitor/${monitor.id}`, { portfolio_id: 'pf_331940' });
    expect(dataOf<{ monitor: MonitorView }>(again).monitor).toMatchObject({ portfolio_id: 'pf_331940', bbl_count: 3 });
    expect(errorOf(await call(api.url, key, 'PATCH', `/api/v1/portfolio/monitor/${monitor.id}`, { portfolio_id: 'pf_1' })).code).toBe('portfolio_not_found');
  });
});
