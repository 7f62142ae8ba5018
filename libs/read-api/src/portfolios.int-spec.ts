import { Client } from 'pg';
import { createTestDatabase, TestDatabase, testRedisPrefix } from '@bhis/testing';
import { auth, call, data, expectError, pagination } from './testing/http';
import { gradeOf, seedBuildings } from './testing/seed';
import { createReadTestKey, ReadTestApi, startReadApi } from './testing/test-api';

interface Portfolio {
  id: string;
  building_count: number;
  registration_count: number;
  units: number;
  grade_distribution: Record<string, number>;
  worst_buildings: { bbl: string; grade: string | null; total_score: number | null }[];
  links: { kind: string; key: string; shown: string; registration_ids: number[] }[];
  caution: string | null;
  buildings: { bbl: string; address: string; units: number; grade: string | null; total_score: number | null }[];
}

const SCORES = [88, 71, 64, 52, 40, 33, 18, 9];
const BBLS = SCORES.map((_, i) => `30051200${String(10 + i)}`);

/**
 * The portfolio endpoints over portfolios as the rebuild writes them (libs/ingestion/src/portfolio-graph.ts,
 * tested there against the synthetic city's owners): eight buildings of one owner, one of them not
 * scored, and a building alone.
 */
describe('GET /buildings/{bbl}/portfolio and /portfolios/{id}', () => {
  let db: TestDatabase;
  let api: ReadTestApi;
  let client: Client;
  let key: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    client = new Client({ connectionString: db.url });
    await client.connect();
    await seedBuildings(client, [
      ...BBLS.map((bbl, i) => ({ bbl, address: `${10 + i} Delavan Street`, units: 10 + i, score: i === 7 ? undefined : SCORES[i], owner: `${10 + i} DELAVAN LLC` })),
      { bbl: '1000010001', address: '1 Broadway', units: 40, score: 50, owner: '1 BROADWAY LLC' },
      { bbl: '1000010002', address: '3 Broadway', units: 40, score: 50, owner: '3 BROADWAY LLC' },
    ]);
    const links = [{ kind: 'person', key: 'GEORGE RIGAS 11231', shown: 'GEORGE RIGAS', registration_ids: [331931, 331932] }];
    await client.query(
      `INSERT INTO owner_portfolios (id, buildings, registrations, links, caution) VALUES ('pf_331931', 8, 9, $1, NULL), ('pf_400001', 1, 1, '[]', NULL)`,
      [JSON.stringify(links)],
    );
    await client.query(`INSERT INTO building_portfolios (bbl, portfolio_id) SELECT unnest($1::text[]), 'pf_331931'`, [BBLS]);
    await client.query(`INSERT INTO building_portfolios (bbl, portfolio_id) VALUES ('1000010001', 'pf_400001')`);
    api = await startReadApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix() });
    key = await createReadTestKey(db.url, { kind: 'demo' });
  });

  afterAll(async () => {
    await api?.close();
    await client?.end();
    await db?.drop();
  });

  it("answers the owner's portfolio of a building: grades, worst buildings, units, what defines it, its buildings a page at a time", async () => {
    const res = await call(`${api.url}/api/v1/buildings/${BBLS[3]}/portfolio?limit=3`, auth(key));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-cost')).toBe('1');
    expect(res.headers.get('etag')).toMatch(/"$/);
    const p = data<Portfolio>(res);
    expect(p).toMatchObject({ id: 'pf_331931', building_count: 8, registration_count: 9, caution: null });
    expect(p.units).toBe(BBLS.reduce((s, _, i) => s + 10 + i, 0));
    const expected: Record<string, number> = { A: 0, B: 0, C: 0, D: 0, F: 0, ungraded: 1 };
    for (const score of SCORES.slice(0, 7)) expected[gradeOf(score).grade]! += 1;
    expect(p.grade_distribution).toEqual(expected);
    expect(p.worst_buildings.map((b) => b.total_score)).toEqual([88, 71, 64, 52, 40]);
    expect(p.links).toEqual([{ kind: 'person', key: 'GEORGE RIGAS 11231', shown: 'GEORGE RIGAS', registration_ids: [331931, 331932] }]);
    expect(p.buildings.map((b) => b.bbl)).toEqual(BBLS.slice(0, 3));
    expect(res.body._links).toMatchObject({ portfolio: `${api.url}/api/v1/portfolios/pf_331931` });

    const seen = [...p.buildings.map((b) => b.bbl)];
    let cursor = pagination(res).next_cursor;
    while (cursor) {
      const next = await call(`${api.url}/api/v1/portfolios/pf_331931?limit=3&cursor=${encodeURIComponent(cursor)}`, auth(key));
      expect(next.status).toBe(200);
      seen.push(...data<Portfolio>(next).buildings.map((b) => b.bbl));
      cursor = pagination(next).next_cursor;
    }
    expect(seen).toEqual(BBLS);
    const unscored = data<Portfolio>(await call(`${api.url}/api/v1/portfolios/pf_331931?limit=100`, auth(key))).buildings.at(-1);
    expect(unscored).toEqual({ bbl: BBLS[7], address: '17 DELAVAN STREET', units: 17, grade: null, total_score: null });
  });

  it('refuses a cursor of another portfolio, a bad id, and tells an unknown building from one without a registration', async () => {
    const first = await call(`${api.url}/api/v1/portfolios/pf_331931?limit=1`, auth(key));
    const cursor = pagination(first).next_cursor!;
    expectError(await call(`${api.url}/api/v1/portfolios/pf_400001?cursor=${encodeURIComponent(cursor)}`, auth(key)), 400, 'invalid_request');
    expectError(await call(`${api.url}/api/v1/portfolios/331931`, auth(key)), 400, 'invalid_request', /pf_/);
    expectError(await call(`${api.url}/api/v1/portfolios/pf_9`, auth(key)), 404, 'not_found');
    expectError(await call(`${api.url}/api/v1/buildings/1000010002/portfolio`, auth(key)), 404, 'not_found', /no current HPD registration/);
    expectError(await call(`${api.url}/api/v1/buildings/2000010001/portfolio`, auth(key)), 404, 'building_not_found');
    expectError(await call(`${api.url}/api/v1/buildings/12/portfolio`, auth(key)), 400, 'invalid_bbl');
    const alone = data<Portfolio>(await call(`${api.url}/api/v1/buildings/1000010001/portfolio`, auth(key)));
    expect(alone).toMatchObject({ id: 'pf_400001', building_count: 1, links: [], units: 40 });
    expect(alone.grade_distribution[gradeOf(50).grade]).toBe(1);
  });

  it('needs buildings:read', async () => {
    const eventsOnly = await createReadTestKey(db.url, { scopes: ['events:read'] });
    expectError(await call(`${api.url}/api/v1/portfolios/pf_331931`, auth(eventsOnly)), 403, 'insufficient_scope');
    expectError(await call(`${api.url}/api/v1/portfolios/pf_331931`), 401, 'missing_api_key');
  });

  it('leads an owner search on to each building\'s portfolio, and only an owner search', async () => {
    const res = await call(`${api.url}/api/v1/buildings/search?owner=delavan&limit=3`, auth(key));
    expect(res.status).toBe(200);
    const found = data<{ buildings: { bbl: string; portfolio_id: string | null; _links: Record<string, string> }[] }>(res).buildings;
    expect(found).toHaveLength(3);
    for (const b of found) {
      expect(b.portfolio_id).toBe('pf_331931');
      expect(b._links['portfolio']).toBe(`${api.url}/api/v1/portfolios/pf_331931`);
    }
    const broadway = data<{ buildings: { bbl: string; portfolio_id: string | null; _links: Record<string, string> }[] }>(
      await call(`${api.url}/api/v1/buildings/search?owner=broadway%20llc&sort=address`, auth(key)),
    ).buildings;
    expect(broadway.map((b) => [b.bbl, b.portfolio_id, b._links['portfolio'] ?? null])).toEqual([
      ['1000010001', 'pf_400001', `${api.url}/api/v1/portfolios/pf_400001`],
      ['1000010002', null, null],
    ]);
    const byAddress = data<{ buildings: Record<string, unknown>[] }>(await call(`${api.url}/api/v1/buildings/search?borough=3`, auth(key))).buildings;
    expect(byAddress.length).toBeGreaterThan(0);
    expect(byAddress[0]).not.toHaveProperty('portfolio_id');
  });
});
