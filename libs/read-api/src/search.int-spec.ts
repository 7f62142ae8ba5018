import { Client } from 'pg';
import { createTestDatabase, TestDatabase, testRedisPrefix } from '@bhis/testing';
import { auth, call, CallResult, data, expectError, pagination } from './testing/http';
import { SeedBuilding, seedBuildings } from './testing/seed';
import { createReadTestKey, ReadTestApi, startReadApi } from './testing/test-api';

interface Summary {
  bbl: string;
  address: string;
  borough: number;
  zipcode: string;
  residential_units: number;
  owner_name: string | null;
  total_score: number;
  grade: string;
  label: string;
  _links: { self: string };
}

const STREETS = ['WEST 45 STREET', 'EAST 12 STREET', 'BEDFORD AVENUE', 'GRAND CONCOURSE', '101 AVENUE'];

/** 250 scored buildings over 5 boroughs and streets, scores repeating (ties broken by BBL). */
function generated(): SeedBuilding[] {
  return Array.from({ length: 250 }, (_, i) => ({
    bbl: `${1 + (i % 5)}${String(100 + i).padStart(5, '0')}${String(1 + (i % 7)).padStart(4, '0')}`,
    address: `${10 + i} ${STREETS[i % 5]}`,
    zipcode: i % 2 === 0 ? '10025' : '11226',
    owner: i % 4 === 0 ? `PARK ${i} REALTY LLC` : `OWNER ${i}`,
    buildingClass: ['C1', 'C6', 'D7', 'R4', 'S2'][i % 5],
    units: i,
    score: (i * 37) % 101,
  }));
}

describe('GET /buildings/search (real Postgres and Redis)', () => {
  let db: TestDatabase;
  let api: ReadTestApi;
  let client: Client;
  let key: string;
  const classOf = new Map<string, string>();

  beforeAll(async () => {
    db = await createTestDatabase();
    client = new Client({ connectionString: db.url });
    await client.connect();
    await seedBuildings(client, [
      { bbl: '1010150001', address: '123 West 45th Street', zipcode: '10036', owner: 'Times Square Holdings LLC', buildingClass: 'D7', score: 71 },
      { bbl: '1010150002', address: '125 West 45th Street', zipcode: '10036', owner: 'Other 100% Owner_Co', buildingClass: 'D6', score: 40 },
      { bbl: '4095120010', address: '104-12 101 Avenue', zipcode: '11416', owner: 'Queens Homes Inc', buildingClass: 'C0', score: 55 },
      { bbl: '4095120011', address: '104-14 101 Avenue', zipcode: '11416', owner: 'Queens Homes Inc', buildingClass: 'C0', score: 22 },
      { bbl: '2024530001', address: '900 Grand Concourse', zipcode: '10451', score: 93 },
      { bbl: '2024530002', address: '901 Grand Concourse', zipcode: '10451' }, // not scored: not searchable
      ...generated(),
    ]);
    await client.query('ANALYZE');
    const { rows } = await client.query<{ bbl: string; building_class: string }>('SELECT bbl, building_class FROM buildings');
    for (const row of rows) classOf.set(row.bbl, row.building_class);
    api = await startReadApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix() });
    key = await createReadTestKey(db.url);
  });

  afterAll(async () => {
    await api?.close();
    await client?.end();
    await db?.drop();
  });

  const search = (query: string, headers: Record<string, string> = {}) => call(`${api.url}/api/v1/buildings/search?${query}`, auth(key, headers));
  const buildings = (res: CallResult) => data<{ buildings: Summary[] }>(res).buildings;

  async function allPages(query: string, limit: number): Promise<Summary[]> {
    const seen: Summary[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 500; page++) {
      const res = await search(`${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      const rows = buildings(res);
      seen.push(...rows);
      const p = pagination(res);
      expect(p.limit).toBe(limit);
      if (!p.has_more) {
        expect(p.next_cursor).toBeNull();
        return seen;
      }
      expect(rows).toHaveLength(limit);
      cursor = p.next_cursor;
    }
    throw new Error('too many pages');
  }

  it('finds an address typed loosely (normalized: 123 w 45th st -> 123 WEST 45 STREET), best match first, as summaries', async () => {
    const res = await search('address=123%20w%2045th%20st');
    const rows = buildings(res);
    expect(rows[0]).toEqual({
      bbl: '1010150001',
      address: '123 WEST 45TH STREET',
      borough: 1,
      zipcode: '10036',
      residential_units: 12,
      owner_name: 'Times Square Holdings LLC',
      total_score: 71,
      grade: 'F',
      label: 'Distressed',
      _links: { self: `${api.url}/api/v1/buildings/1010150001` },
    });
    expect(rows.map((r) => r.bbl)).not.toContain('1010150002'); // another house number
    // typos in the street are tolerated once the house number matches
    expect(buildings(await search('address=123%20west%2045%20stret'))[0].bbl).toBe('1010150001');
    // a pasted postal address: its city, state and ZIP Code are left out
    expect(buildings(await search(`address=${encodeURIComponent('123 W 45th St, New York, NY 10036')}`))[0].bbl).toBe('1010150001');
    expect(buildings(await search(`address=${encodeURIComponent('123 W 45th Str New York NY 10036')}`))[0].bbl).toBe('1010150001');
    // a street without house number: every address on it
    const street = buildings(await search('address=w%2045th%20street&limit=100')).map((r) => r.bbl);
    expect(street).toEqual(expect.arrayContaining(['1010150001', '1010150002']));
    // a street alone, one word of it or pasted with the city: its buildings in street order, a page at a time
    const grand = buildings(await search('address=grand&limit=100'));
    expect(grand.map((r) => r.bbl)).toContain('2024530001');
    expect(grand.every((r) => /^\S*\d\S* GRAND /i.test(String(r.address)))).toBe(true);
    const whole = buildings(await search('address=w%2045th%20st&limit=100')).map((r) => r.bbl);
    const west = await search('address=w%2045th%20st&limit=1');
    const more = await search(`address=w%2045th%20st&limit=1&cursor=${encodeURIComponent(pagination(west).next_cursor as string)}`);
    expect([...buildings(west), ...buildings(more)].map((r) => r.bbl)).toEqual(whole.slice(0, 2));
    expect(buildings(await search(`address=${encodeURIComponent('W 45th St, New York, NY 10036')}&limit=100`)).map((r) => r.bbl)).toEqual(whole);
    expect(res.body._links).toEqual({ self: `${api.url}/api/v1/buildings/search?address=123%20w%2045th%20st` });
    expect(pagination(res)).toEqual({ limit: 25, has_more: false, next_cursor: null });
  });

  it('matches Queens hyphenated house numbers and address prefixes', async () => {
    expect(buildings(await search('address=104-12%20101%20ave'))[0].bbl).toBe('4095120010');
    expect(buildings(await search('address=104-12 101 Avenue'))[0].bbl).toBe('4095120010');
    const prefix = buildings(await search('address=104-1'));
    expect(prefix.slice(0, 2).map((r) => r.bbl).sort()).toEqual(['4095120010', '4095120011']);
  });

  it('filters by borough (code or name), zipcode, grade list, owner substring, building class prefix and score range', async () => {
    const all = await allPages('min_score=0', 100);
    expect(all).toHaveLength(255);
    expect(all.map((r) => r.bbl)).not.toContain('2024530002');
    const check = async (query: string, predicate: (s: Summary) => boolean) => {
      const rows = await allPages(query, 100);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.map((r) => r.bbl).sort()).toEqual(all.filter(predicate).map((r) => r.bbl).sort());
    };
    await check('borough=2', (s) => s.borough === 2);
    await check('borough=staten%20island', (s) => s.borough === 5);
    await check('borough=BK', (s) => s.borough === 3);
    await check('zipcode=10036', (s) => s.zipcode === '10036');
    await check('grade=d,F', (s) => s.grade === 'D' || s.grade === 'F');
    await check('owner=realty', (s) => (s.owner_name ?? '').toUpperCase().includes('REALTY'));
    await check('owner=100%25%20own', (s) => s.bbl === '1010150002');
    await check('owner=r_co', (s) => s.bbl === '1010150002');
    await check('building_class=d', (s) => classOf.get(s.bbl)?.startsWith('D') === true);
    await check('building_class=C0', (s) => classOf.get(s.bbl) === 'C0');
    await check('min_score=60&max_score=70', (s) => s.total_score >= 60 && s.total_score <= 70);
    await check('borough=1&grade=A&max_score=10', (s) => s.borough === 1 && s.grade === 'A' && s.total_score <= 10);
  });

  it('sorts by -total_score by default, and by total_score or address on request, ties broken by BBL', async () => {
    const desc = await allPages('min_score=0', 100);
    for (let i = 1; i < desc.length; i++) {
      const [a, b] = [desc[i - 1], desc[i]];
      expect(a.total_score > b.total_score || (a.total_score === b.total_score && a.bbl < b.bbl)).toBe(true);
    }
    const asc = await allPages('min_score=0&sort=total_score', 100);
    expect(asc.map((r) => r.total_score)).toEqual([...desc.map((r) => r.total_score)].reverse());
    const byAddress = await allPages('borough=1&sort=address', 100);
    const { rows } = await client.query<{ address_search: string; bbl: string }>(
      `SELECT b.address_search, b.bbl FROM buildings b JOIN building_scores s USING (bbl) WHERE b.borough = 1 ORDER BY b.address_search COLLATE "C", b.bbl`,
    );
    expect(byAddress.map((r) => r.bbl)).toEqual(rows.map((r) => r.bbl));
  });

  it('pages without duplicates or gaps, for every sort', async () => {
    for (const query of ['min_score=0', 'min_score=0&sort=total_score', 'borough=3&sort=address', 'address=west%2045%20street', 'grade=B,C', 'zipcode=11226']) {
      const full = await allPages(query, 100);
      const paged = await allPages(query, 7);
      expect(paged.map((r) => r.bbl)).toEqual(full.map((r) => r.bbl));
      expect(new Set(paged.map((r) => r.bbl)).size).toBe(paged.length);
    }
  });

  it('refuses a cursor used with other filters or sort, tampered, or from another endpoint', async () => {
    const first = await search('borough=1&limit=5');
    const cursor = pagination(first).next_cursor as string;
    expect(cursor).toEqual(expect.any(String));
    expect((await search(`borough=1&limit=10&cursor=${encodeURIComponent(cursor)}`)).status).toBe(200); // the page size may change
    expectError(await search(`borough=2&limit=5&cursor=${encodeURIComponent(cursor)}`), 400, 'invalid_request', /cursor.*other filters/);
    expectError(await search(`borough=1&sort=total_score&cursor=${encodeURIComponent(cursor)}`), 400, 'invalid_request', /cursor/);
    const [payload, signature] = cursor.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), k: [100, '1000000000'] })).toString('base64url');
    expectError(await search(`borough=1&cursor=${forged}.${signature}`), 400, 'invalid_request', /cursor/);
    for (const bad of ['x', '.', 'abc.def', `${payload}.`, `${payload}.${signature}x`, `${payload}x.${signature}`]) {
      expectError(await search(`borough=1&cursor=${encodeURIComponent(bad)}`), 400, 'invalid_request', /cursor/);
    }
    // a cursor is bound to the key it was issued to
    const other = await createReadTestKey(db.url);
    expectError(await call(`${api.url}/api/v1/buildings/search?borough=1&limit=5&cursor=${encodeURIComponent(cursor)}`, auth(other)), 400, 'invalid_request', /cursor/);
  });

  it('answers bad parameters with 400 invalid_request naming them', async () => {
    expectError(await search(''), 400, 'invalid_request', /At least one filter.*address.*borough.*zipcode.*grade.*owner.*building_class.*min_score.*max_score/);
    expectError(await search('sort=address'), 400, 'invalid_request', /At least one filter/);
    expectError(await search('borough=7'), 400, 'invalid_request', /"borough"/);
    expectError(await search('zipcode=1001'), 400, 'invalid_request', /"zipcode"/);
    expectError(await search('grade=E'), 400, 'invalid_request', /"grade".*"E"/);
    expectError(await search('grade=,'), 400, 'invalid_request', /"grade"/);
    expectError(await search('owner=ab'), 400, 'invalid_request', /"owner"/);
    expectError(await search('building_class=7'), 400, 'invalid_request', /"building_class"/);
    expectError(await search('min_score=-1'), 400, 'invalid_request', /"min_score"/);
    expectError(await search('max_score=101'), 400, 'invalid_request', /"max_score"/);
    for (const decimal of ['min_score=50.5', 'max_score=99.9', 'min_score=1e1', 'min_score=0x10']) expectError(await search(decimal), 400, 'invalid_request', /_score"/);
    expectError(await search('min_score=50&max_score=40'), 400, 'invalid_request', /"min_score".*"max_score"/);
    expectError(await search('borough=1&sort=score'), 400, 'invalid_request', /"sort"/);
    expectError(await search('borough=1&sort=relevance'), 400, 'invalid_request', /relevance.*address/);
    for (const limit of ['0', '101', 'abc', '1.5', '']) {
      expectError(await search(`borough=1&limit=${limit}`), 400, 'invalid_request', /"limit"/);
    }
    expectError(await search('borough=1&page=2'), 400, 'invalid_request', /page/);
    expectError(await search('borough=1&borough=2'), 400, 'invalid_request', /borough/);
    expectError(await search('address=%20-%20'), 400, 'invalid_request', /"address"/);
    for (const vague of ['Q%20A', 'avenue%20x']) expectError(await search(`address=${vague}`), 400, 'invalid_request', /"address" cannot be searched by an index/);
  });

  it('supports conditional requests', async () => {
    const res = await search('borough=1&limit=3');
    const etag = res.headers.get('etag') as string;
    expect(etag).toMatch(/^W\//);
    const again = await search('borough=1&limit=3', { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.get('x-ratelimit-remaining')).not.toBeNull();
    expect((await search('borough=1&limit=4', { 'If-None-Match': etag })).status).toBe(200);
  });
});
