import { Client } from 'pg';
import { ChangeListener } from '@bhis/db';
import { ANNOUNCED_WITHIN_MS, createTestDatabase, poll, TestDatabase, testRedisPrefix } from '@bhis/testing';
import { auth, call, CallResult, data, expectError, pagination } from './testing/http';
import { seedBuildings, seedEvents, seedHistory } from './testing/seed';
import { createReadTestKey, ReadTestApi, startReadApi } from './testing/test-api';
import { CursorCodec } from './shared/cursor';

interface ApiEvent {
  id: string;
  source: string;
  source_record_id: string;
  category: string;
  severity: string;
  event_type: string;
  status: string | null;
  occurred_on: string | null;
  closed_on: string | null;
  description: string | null;
  source_url: string | null;
  attributes: Record<string, unknown>;
}

interface Point {
  as_of: string;
  scorer_id: string;
  total_score: number;
  health_score: number;
  grade: string;
  components: Record<string, number>;
}

const BUSY = '1010150001';
const QUIET = '3012340056';
const EVENTS = 1_200;

describe('events and trajectory (real Postgres and Redis)', () => {
  let db: TestDatabase;
  let api: ReadTestApi;
  let client: Client;
  let key: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    client = new Client({ connectionString: db.url });
    await client.connect();
    await seedBuildings(client, [
      { bbl: BUSY, address: '123 West 45 Street', score: 71 },
      { bbl: QUIET, address: '45 Bedford Avenue', score: 12 },
    ]);
    await seedEvents(client, BUSY, EVENTS);
    await seedHistory(client, BUSY, 60);
    await client.query('ANALYZE');
    api = await startReadApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix() });
    key = await createReadTestKey(db.url);
  });

  afterAll(async () => {
    await api?.close();
    await client?.end();
    await db?.drop();
  });

  const get = (path: string, headers: Record<string, string> = {}) => call(`${api.url}${path}`, auth(key, headers));
  const events = (res: CallResult) => data<{ bbl: string; events: ApiEvent[] }>(res).events;

  async function allEvents(query: string, limit: number): Promise<ApiEvent[]> {
    const seen: ApiEvent[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 1_000; page++) {
      const res = await get(`/api/v1/buildings/${BUSY}/events?limit=${limit}${query ? `&${query}` : ''}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...events(res));
      const p = pagination(res);
      if (!p.has_more) return seen;
      cursor = p.next_cursor;
    }
    throw new Error('too many pages');
  }

  /** The expected order: occurred_on DESC NULLS LAST, id DESC. */
  function newestFirst(a: ApiEvent, b: ApiEvent): number {
    if (a.occurred_on !== b.occurred_on) {
      if (a.occurred_on === null) return 1;
      if (b.occurred_on === null) return -1;
      return a.occurred_on < b.occurred_on ? 1 : -1;
    }
    return BigInt(b.id) > BigInt(a.id) ? 1 : -1;
  }

  describe('GET /buildings/{bbl}/events', () => {
    it('lists events newest first with the event fields, a source_url and the attributes', async () => {
      const res = await get(`/api/v1/buildings/${BUSY}/events`);
      const body = data<{ bbl: string; events: ApiEvent[] }>(res);
      expect(body.bbl).toBe(BUSY);
      expect(body.events).toHaveLength(25);
      expect(Object.keys(body.events[0])).toEqual([
        'id', 'source', 'source_record_id', 'category', 'severity', 'event_type', 'status', 'occurred_on', 'closed_on', 'description', 'source_url', 'attributes',
      ]);
      expect(body.events[0]).toEqual(expect.objectContaining({ id: expect.stringMatching(/^\d+$/), occurred_on: '2025-12-31', closed_on: null }));
      expect([...body.events].sort(newestFirst)).toEqual(body.events);
      const hpd = body.events.find((e) => e.source === 'hpd_violations') as ApiEvent;
      expect(hpd.source_url).toBe(`https://hpdonline.nyc.gov/hpdonline/building/${hpd.attributes.building_id}`);
      const dob = body.events.find((e) => e.source === 'dob_violations') as ApiEvent;
      expect(dob.source_url).toBe('https://a810-bisweb.nyc.gov/bisweb/PropertyProfileOverviewServlet?boro=1&block=01015&lot=0001');
      const sr = body.events.find((e) => e.source === 'nyc311') as ApiEvent;
      expect(sr.source_url).toBe('https://data.cityofnewyork.us/d/erm2-nwe9');
      expect(pagination(res)).toEqual({ limit: 25, has_more: true, next_cursor: expect.any(String) });
      expect(res.headers.get('cache-control')).toBe('private, max-age=300');
    });

    it('pages through every event without duplicates or gaps (undated events last)', async () => {
      const paged = await allEvents('', 100);
      expect(paged).toHaveLength(EVENTS);
      expect(new Set(paged.map((e) => e.id)).size).toBe(EVENTS);
      expect([...paged].sort(newestFirst).map((e) => e.id)).toEqual(paged.map((e) => e.id));
      expect(paged.slice(-EVENTS / 10).every((e) => e.occurred_on === null)).toBe(true);
      const small = await allEvents('', 7);
      expect(small.map((e) => e.id)).toEqual(paged.map((e) => e.id));
    });

    it('links the next page in _links.next and an RFC 8288 Link header, with the filters kept, until the last page', async () => {
      const first = await get(`/api/v1/buildings/${BUSY}/events?severity=critical&limit=40`);
      const links = first.body._links as Record<string, string>;
      const next = new URL(links.next as string);
      expect(`${next.origin}${next.pathname}`).toBe(`${api.url}/api/v1/buildings/${BUSY}/events`);
      expect(Object.fromEntries(next.searchParams)).toEqual({ severity: 'critical', limit: '40', cursor: pagination(first).next_cursor });
      expect(first.headers.get('link')).toBe(`<${links.next}>; rel="next"`);
      expect(Object.keys(links)).toEqual(['self', 'building', 'next']);
      // following the links alone reads the filter to its end, and the last page links nothing further
      const seen = events(first);
      let res = first;
      while ((res.body._links as Record<string, string>).next) {
        res = await call((res.body._links as Record<string, string>).next as string, auth(key));
        seen.push(...events(res));
      }
      expect(pagination(res).has_more).toBe(false);
      expect(res.headers.get('link')).toBeNull();
      expect(seen.map((e) => e.id)).toEqual((await allEvents('severity=critical', 100)).map((e) => e.id));
      // a cursor already in the request is replaced, not repeated
      const second = new URL(links.next as string);
      const again = await call(second.toString(), auth(key));
      expect(new URL((again.body._links as Record<string, string>).next as string).searchParams.getAll('cursor')).toEqual([pagination(again).next_cursor]);
      // search and trajectory pages link theirs the same way
      const trajectory = await get(`/api/v1/buildings/${BUSY}/trajectory?limit=10`);
      expect(trajectory.headers.get('link')).toBe(`<${(trajectory.body._links as Record<string, string>).next}>; rel="next"`);
      const search = await get('/api/v1/buildings/search?min_score=0&limit=1');
      expect(new URL((search.body._links as Record<string, string>).next as string).searchParams.get('cursor')).toBe(pagination(search).next_cursor);
    });

    it('filters by source, category, severity and an inclusive date range, paging within the filter', async () => {
      const all = await allEvents('', 100);
      const check = async (query: string, predicate: (e: ApiEvent) => boolean) => {
        const expected = all.filter(predicate).map((e) => e.id);
        expect(expected.length).toBeGreaterThan(0);
        expect((await allEvents(query, 9)).map((e) => e.id)).toEqual(expected);
      };
      await check('source=nyc311,hpd_complaints', (e) => e.source === 'nyc311' || e.source === 'hpd_complaints');
      await check('category=mold', (e) => e.category === 'mold');
      await check('severity=critical,HIGH', (e) => e.severity === 'critical' || e.severity === 'high');
      await check('since=2025-12-01&until=2025-12-30', (e) => e.occurred_on !== null && e.occurred_on >= '2025-12-01' && e.occurred_on <= '2025-12-30');
      await check('since=2025-12-31', (e) => e.occurred_on === '2025-12-31');
      await check('until=2025-10-01&source=dob_violations', (e) => e.occurred_on !== null && e.occurred_on <= '2025-10-01' && e.source === 'dob_violations');
      await check('status=open', (e) => e.status === 'open');
      await check('status=Closed,open&severity=low', (e) => (e.status === 'closed' || e.status === 'open') && e.severity === 'low');
      expect(await allEvents('status=dismissed,rescinded', 100)).toEqual([]);
    });

    it('keeps the cursors of requests without a status filter as they were', async () => {
      // the filters a cursor is signed for are those of before the status filter existed
      const first = await get(`/api/v1/buildings/${BUSY}/events?source=nyc311&limit=3`);
      const cursors = api.app.get(CursorCodec);
      const filters = JSON.stringify([BUSY, { sources: ['nyc311'], categories: null, severities: null, since: null, until: null }]);
      const { rows } = await client.query<{ id: string }>('SELECT id FROM api_keys');
      const decoded = rows.map(({ id }) => {
        try {
          return cursors.decode('events', `key:${id}`, filters, pagination(first).next_cursor as string, ['date?', 'digits']);
        } catch {
          return null;
        }
      });
      expect(decoded.filter((position) => position !== null)).toHaveLength(1);
    });

    it('answers a building without events with an empty list, an unknown building with 404', async () => {
      const res = await get(`/api/v1/buildings/${QUIET}/events`);
      expect(data(res)).toEqual({ bbl: QUIET, events: [] });
      expect(pagination(res)).toEqual({ limit: 25, has_more: false, next_cursor: null });
      expect(data(await get(`/api/v1/buildings/${BUSY}/events?since=1990-01-01&until=1990-01-02`))).toEqual({ bbl: BUSY, events: [] });
      expectError(await get('/api/v1/buildings/2000010001/events'), 404, 'building_not_found', /2000010001/);
      expectError(await get('/api/v1/buildings/20000100/events'), 400, 'invalid_bbl', /20000100/);
    });

    it('answers bad filters with 400 invalid_request naming them', async () => {
      const bad = (query: string) => get(`/api/v1/buildings/${BUSY}/events?${query}`);
      expectError(await bad('source=hpd_violations,bogus_source'), 400, 'invalid_request', /"source".*"bogus_source"/);
      expectError(await bad('category=leaks'), 400, 'invalid_request', /"category".*"leaks"/);
      expectError(await bad('severity=urgent'), 400, 'invalid_request', /"severity".*"urgent"/);
      expectError(await bad('status=pending'), 400, 'invalid_request', /"status".*"pending".*open, closed/);
      expectError(await bad('status=,'), 400, 'invalid_request', /"status"/);
      expectError(await bad('status=open&status=closed'), 400, 'invalid_request', /status/);
      expectError(await bad('since=2024-02-30'), 400, 'invalid_request', /"since"/);
      expectError(await bad('until=yesterday'), 400, 'invalid_request', /"until"/);
      expectError(await bad('since=2025-01-02&until=2025-01-01'), 400, 'invalid_request', /"since".*"until"/);
      expectError(await bad('limit=500'), 400, 'invalid_request', /"limit"/);
      expectError(await bad('offset=10'), 400, 'invalid_request', /offset/);
      expectError(await bad('cursor=abc'), 400, 'invalid_request', /cursor/);
      const first = await get(`/api/v1/buildings/${BUSY}/events?source=nyc311`);
      const cursor = encodeURIComponent(pagination(first).next_cursor as string);
      expectError(await bad(`source=dob_violations&cursor=${cursor}`), 400, 'invalid_request', /cursor/);
      expectError(await get(`/api/v1/buildings/${QUIET}/events?source=nyc311&cursor=${cursor}`), 400, 'invalid_request', /cursor/);
      expectError(await get(`/api/v1/buildings/${BUSY}/trajectory?cursor=${cursor}`), 400, 'invalid_request', /cursor/);
    });

    it('refuses a cursor issued to another key, for events and trajectory, even when the page came from the cache', async () => {
      const other = await createReadTestKey(db.url);
      const asOther = (path: string) => call(`${api.url}${path}`, auth(other));
      for (const path of [`/api/v1/buildings/${BUSY}/events?source=nyc311`, `/api/v1/buildings/${BUSY}/trajectory?limit=5`]) {
        const issued = pagination(await get(path)).next_cursor as string;
        expect(issued).toEqual(expect.any(String));
        const next = `${path}&cursor=${encodeURIComponent(issued)}`;
        expect((await get(next)).status).toBe(200);
        expectError(await asOther(next), 400, 'invalid_request', /cursor/);
        // the same page served to the other key carries a cursor of its own, which works for it
        const own = pagination(await asOther(path)).next_cursor as string;
        expect(own).not.toBe(issued);
        expect((await asOther(`${path}&cursor=${encodeURIComponent(own)}`)).status).toBe(200);
      }
    });

    it('serves one event by id, the one the list and the explanation name, and 404 event_not_found for an id the building lacks', async () => {
      const listed = events(await get(`/api/v1/buildings/${BUSY}/events?limit=30`));
      for (const event of [listed[0], listed[29]] as ApiEvent[]) {
        const res = await get(`/api/v1/buildings/${BUSY}/events/${event.id}`);
        expect(data(res)).toEqual(event);
        expect(res.body.pagination).toBeNull();
        expect(res.body._links).toEqual({
          self: `${api.url}/api/v1/buildings/${BUSY}/events/${event.id}`,
          events: `${api.url}/api/v1/buildings/${BUSY}/events`,
          building: `${api.url}/api/v1/buildings/${BUSY}`,
        });
        const etag = res.headers.get('etag') as string;
        expect((await get(`/api/v1/buildings/${BUSY}/events/${event.id}`, { 'If-None-Match': etag })).status).toBe(304);
      }
      // the explanation's event ids are fetched through it
      const ids = listed.slice(0, 3).map((e) => e.id);
      await client.query(`UPDATE building_scores SET explanation = json_build_object('components', json_build_object('living_conditions',
                            json_build_array(json_build_object('signal', 's', 'contribution', 1, 'count', 3, 'event_ids', $2::text[]))), 'adjustments', '[]'::json)
                          WHERE bbl = $1`, [BUSY, ids]);
      const explanation = data<{ explanation: { components: Record<string, { event_ids: string[] }[]> } }>(await get(`/api/v1/buildings/${BUSY}?include=explanation`)).explanation;
      const cited = Object.values(explanation.components).flat().flatMap((signal) => signal.event_ids);
      expect(cited).toEqual(ids);
      for (const id of cited) expect(data<ApiEvent>(await get(`/api/v1/buildings/${BUSY}/events/${id}`)).id).toBe(id);

      // another building's event, an unknown id, an unknown building, a bad id
      expectError(await get(`/api/v1/buildings/${QUIET}/events/${listed[0]?.id}`), 404, 'event_not_found', new RegExp(`${QUIET}.*${listed[0]?.id}`));
      expectError(await get(`/api/v1/buildings/${BUSY}/events/999999999999`), 404, 'event_not_found');
      expectError(await get(`/api/v1/buildings/2000010001/events/1`), 404, 'building_not_found');
      for (const bad of ['abc', '-1', '1.5', '9'.repeat(19)]) expectError(await get(`/api/v1/buildings/${BUSY}/events/${bad}`), 400, 'invalid_request', /event id/);
      expectError(await get(`/api/v1/buildings/${BUSY}/events/${listed[0]?.id}?x=1`), 400, 'invalid_request', /"x"/);
      const buildingsOnly = await createReadTestKey(db.url, { scopes: ['buildings:read'] });
      expectError(await call(`${api.url}/api/v1/buildings/${BUSY}/events/${listed[0]?.id}`, auth(buildingsOnly)), 403, 'insufficient_scope', /events:read/);
      expectError(await call(`${api.url}/api/v1/buildings/${BUSY}/events/${listed[0]?.id}`), 401, 'missing_api_key');
    });

    it('needs the events:read scope', async () => {
      const buildingsOnly = await createReadTestKey(db.url, { scopes: ['buildings:read'] });
      expectError(await call(`${api.url}/api/v1/buildings/${BUSY}/events`, auth(buildingsOnly)), 403, 'insufficient_scope', /events:read/);
      expect((await call(`${api.url}/api/v1/buildings/${BUSY}`, auth(buildingsOnly))).status).toBe(200);
    });

    it('supports conditional requests', async () => {
      const path = `/api/v1/buildings/${BUSY}/events?limit=5`;
      const etag = (await get(path)).headers.get('etag') as string;
      expect((await get(path, { 'If-None-Match': etag })).status).toBe(304);
      await client.query(`UPDATE events SET status = 'closed' WHERE bbl = $1 AND source_record_id = 'rec-0'`, [BUSY]);
      // the change reaches the API with Postgres' notification, moments after the commit
      const changed = await poll('the announced change', async () => {
        const res = await get(path, { 'If-None-Match': etag });
        return res.status === 200 ? res : null;
      }, ANNOUNCED_WITHIN_MS, 10).catch(() => get(path, { 'If-None-Match': etag }));
      expect(changed.status).toBe(200);
    });
    it('serves pages from memory until Postgres announces a change of the events', async () => {
      const listener = api.app.get(ChangeListener);
      await poll('the notification listener', async () => listener.isLive() || null, 10_000, 20);
      const path = `/api/v1/buildings/${BUSY}/events?limit=3&source=dob_violations`;
      const statuses = async () => events(await get(path)).map((e) => e.status);
      const before = await statuses();
      expect(before).toHaveLength(3);
      try {
        // a change Postgres does not announce shows that the page comes from memory
        await client.query('ALTER TABLE events DISABLE TRIGGER events_changed');
        await client.query(`UPDATE events SET status = 'dismissed' WHERE bbl = $1 AND source = 'dob_violations'`, [BUSY]);
        expect(await statuses()).toEqual(before);
      } finally {
        await client.query('ALTER TABLE events ENABLE TRIGGER events_changed');
      }
      await client.query(`UPDATE events SET status = 'rescinded' WHERE bbl = $1 AND source = 'dob_violations'`, [BUSY]);
      const announced = ['rescinded', 'rescinded', 'rescinded'];
      const seen = await poll('the announced change', async () => {
        const now = await statuses();
        return now.join() === announced.join() ? now : null;
      }, ANNOUNCED_WITHIN_MS, 10).catch(() => statuses());
      expect(seen).toEqual(announced);
    });
  });

  describe('GET /buildings/{bbl}/trajectory', () => {
    it('lists the score history oldest first, paged', async () => {
      const res = await get(`/api/v1/buildings/${BUSY}/trajectory`);
      const body = data<{ bbl: string; points: Point[] }>(res);
      expect(body.bbl).toBe(BUSY);
      expect(body.points).toHaveLength(25);
      expect(body.points[0]).toEqual({
        as_of: '2025-01-01',
        scorer_id: 'distress_v10_1',
        total_score: 40,
        health_score: 60,
        grade: 'C',
        components: { living_conditions: 41.5, building_safety: 12.0 },
      });
      const points: Point[] = [];
      let cursor: string | null = null;
      do {
        const page = await get(`/api/v1/buildings/${BUSY}/trajectory?limit=11${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        points.push(...data<{ points: Point[] }>(page).points);
        cursor = pagination(page).next_cursor;
      } while (cursor);
      expect(points).toHaveLength(60);
      const keys = points.map((p) => `${p.as_of}/${p.scorer_id}`);
      expect(keys).toEqual([...keys].sort());
      expect(new Set(keys).size).toBe(60);
    });

    it('answers an empty history, an unknown building, bad BBLs and parameters', async () => {
      expect(data(await get(`/api/v1/buildings/${QUIET}/trajectory`))).toEqual({ bbl: QUIET, points: [] });
      expectError(await get('/api/v1/buildings/2000010001/trajectory'), 404, 'building_not_found');
      expectError(await get('/api/v1/buildings/x/trajectory'), 400, 'invalid_bbl');
      expectError(await get(`/api/v1/buildings/${BUSY}/trajectory?limit=0`), 400, 'invalid_request', /"limit"/);
      expectError(await get(`/api/v1/buildings/${BUSY}/trajectory?since=2020-01-01`), 400, 'invalid_request', /since/);
    });
  });
});
