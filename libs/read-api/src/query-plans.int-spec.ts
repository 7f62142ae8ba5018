import { Client, QueryConfig } from 'pg';
import { createTestDatabase, seedAddressCity, tableReads, TestDatabase } from '@bhis/testing';
import { parseEventsParams } from './events/events-params';
import { eventStatement, eventsStatement, EVENTS_SCANNED_PER_PAGE } from './events/events.query';
import { EventsRepository } from './events/events.repository';
import { parseSearchParams } from './search/search-params';
import { OWNER_CANDIDATES, searchStatement } from './search/search.query';
import { SearchRepository } from './search/search.repository';
import type { SearchQueryDto } from './search/search-query.dto';
import { seedBuildings, seedEvents } from './testing/seed';

const CITY = 100_000;
const BUSY = '1010150001';
const BUSY_EVENTS = 6_000;

/**
 * The work of a search or an events page is bounded by what it returns, not by the size of the city
 * or of a building's history: proved on the plans Postgres runs (EXPLAIN ANALYZE), not by timings.
 */
describe('query plans of search and events (real Postgres)', () => {
  let db: TestDatabase;
  let client: Client;

  beforeAll(async () => {
    db = await createTestDatabase();
    client = new Client({ connectionString: db.url });
    await client.connect();
    await seedBuildings(client, [{ bbl: BUSY, address: '1 Template Street', score: 50 }]);
    await seedAddressCity(client, CITY, BUSY);
    await seedEvents(client, BUSY, BUSY_EVENTS);
    await client.query('ANALYZE');
  }, 120_000);

  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });

  const search = (query: SearchQueryDto) => {
    const params = parseSearchParams(query);
    return searchStatement(params.filters, null, params.limit + 1);
  };

  it('refuses a street query no index can narrow, which would read a large share of the city', async () => {
    for (const address of ['Q A', 'avenue x', 'w st']) {
      expect(() => parseSearchParams({ address })).toThrow(expect.objectContaining({ code: 'invalid_request', message: expect.stringMatching(/cannot be searched by an index/) }));
    }
  });

  it('lists a long street a page at a time, reading the page and not the street or the city', async () => {
    // one of the seeded avenues renamed: ~1,100 buildings on LEXINGTON AVENUE
    await client.query(`UPDATE buildings SET address_search = split_part(address_search, ' ', 1) || ' LEXINGTON AVENUE' WHERE address_search LIKE '% 7 AVENUE'`);
    await client.query('ANALYZE buildings');
    const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM buildings WHERE address_search LIKE '% LEXINGTON AVENUE'`);
    expect(rows[0]?.n).toBeGreaterThan(1_000);
    for (const address of ['lexington', 'lexington av', 'Lexington Ave, New York, NY']) {
      const params = parseSearchParams({ address, limit: '25' });
      expect(params.filters.sort).toBe('address');
      const first = searchStatement(params.filters, null, 26);
      const reads = await tableReads(client, first, 'buildings');
      expect(reads.scans).toEqual(['Index Scan']);
      expect(reads.rowsExamined).toBeLessThanOrEqual(26);
      const page = await client.query<{ address: string; sort_key: string; bbl: string }>(first);
      expect(page.rows).toHaveLength(26);
      // the next page, from the last row's position: the same bounded read
      const last = page.rows[24]!;
      const next = searchStatement(params.filters, [last.sort_key, last.bbl], 26);
      expect((await tableReads(client, next, 'buildings')).rowsExamined).toBeLessThanOrEqual(26);
      const after = await client.query<{ bbl: string }>(next);
      expect(after.rows[0]!.bbl > last.bbl || after.rows[0]!.bbl === page.rows[25]!.bbl).toBe(true);
    }
  });

  it('reads the addresses of one house number for a house number and street, not the city', async () => {
    const reads = await tableReads(client, search({ address: '4 zephyr street' }), 'buildings');
    const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM buildings WHERE address_search LIKE '4 %'`);
    expect(reads.scans).not.toContain('Seq Scan');
    expect(reads.rowsExamined).toBeLessThanOrEqual((rows[0]?.n ?? 0) + 10);
    expect(reads.rowsExamined).toBeLessThan(CITY / 100);
  });

  describe('a house number and street', () => {
    beforeAll(async () => {
      await seedBuildings(client, [
        { bbl: '3000010001', address: '4 Quince Avenue', score: 30 },
        { bbl: '3000010002', address: '4 Quincy Avenue', score: 60 },
      ]);
      await client.query('ANALYZE buildings');
    });

    // typed, mistyped and pasted: house number 4 has ~330 addresses in the city, two of them on QUINCE/QUINCY AVENUE
    it.each(['4 quince av', '4 qunice avenue', '4 Quince Ave, Brooklyn, NY 11201'])(
      'seeks house number and street "%s" in buildings_house_street_idx, not a range of every address of the house number',
      async (address) => {
        const statement = search({ address });
        const reads = await tableReads(client, statement, 'buildings');
        const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM buildings WHERE address_search LIKE '4 %'`);
        expect(rows[0]?.n).toBeGreaterThan(300);
        const found = await client.query<{ address: string }>(statement);
        expect(found.rows[0]?.address.toUpperCase()).toBe('4 QUINCE AVENUE');
        expect(reads.indexes).toContain('buildings_house_street_idx');
        expect(reads.indexes).not.toContain('buildings_address_prefix_idx');
        // the matches and the few whose trigrams nearly match, not the house number's addresses
        expect(reads.rowsExamined).toBeLessThanOrEqual(10);
      },
    );
  });

  describe('an owner sorted by score', () => {
    /** The statements a search page sends, run through the repository. */
    async function pageStatements(query: SearchQueryDto): Promise<QueryConfig[]> {
      const sent: QueryConfig[] = [];
      const recording = { query: (config: QueryConfig) => (sent.push(config), client.query(config)) };
      const params = parseSearchParams(query);
      await new SearchRepository(() => recording as never).page(params.filters, null, params.limit);
      return sent;
    }

    let owner = '';
    beforeAll(async () => {
      // 2,000 owners of 50 buildings each; the ones ANALYZE draws as histogram bounds are estimated at
      // about 1% of the city (the planner's floor for a pattern it sees in the histogram), 20 times what they own
      await client.query(`UPDATE buildings SET owner_name = 'HOLDER ' || lpad(((hashtext(bbl) & 65535) % 2000)::text, 4, '0') || ' LLC'`);
      await client.query('ANALYZE buildings');
      const bounds = await client.query<{ bound: string }>(
        `SELECT unnest(histogram_bounds::text::text[]) AS bound FROM pg_stats WHERE tablename = 'buildings_owner_trgm_idx'`,
      );
      owner = bounds.rows[Math.floor(bounds.rows.length / 2)]?.bound ?? '';
      expect(owner).toMatch(/^HOLDER \d{4} LLC$/);
      const estimate = await client.query<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
        `EXPLAIN (FORMAT JSON) SELECT bbl FROM buildings WHERE upper(owner_name) LIKE $1`,
        [`%${owner}%`],
      );
      expect(estimate.rows[0]!['QUERY PLAN'][0].Plan['Plan Rows']).toBeGreaterThan(500);
    }, 60_000);

    it("reads the owner's buildings through buildings_owner_trgm_idx, then sorts them: not the score index", async () => {
      const statements = await pageStatements({ owner: owner.toLowerCase() });
      const reads = [];
      for (const statement of statements) reads.push(await tableReads(client, statement, 'building_scores'));
      const indexes = reads.flatMap((r) => r.indexes);
      expect(indexes).toContain('buildings_owner_trgm_idx');
      expect(indexes).not.toContain('building_scores_total_idx');
      // the scores of its 50 or so buildings, not a walk of the city's scores until 26 of them are found
      expect(reads.reduce((n, r) => n + r.rowsExamined, 0)).toBeLessThanOrEqual(100);
    });

    it('pages the same buildings in the same order as the statement that walks the score index', async () => {
      const params = parseSearchParams({ owner: owner.toLowerCase(), limit: '7' });
      const repository = new SearchRepository(() => client as never);
      let position: [string | number, string] | null = null;
      const read: string[] = [];
      const walked: string[] = [];
      for (let page = 0; page < 20; page++) {
        const { rows, hasMore } = await repository.page(params.filters, position, 7);
        const direct = await client.query<{ bbl: string; sort_key: number }>(searchStatement(params.filters, position, 8));
        read.push(...rows.map((r) => r.bbl));
        walked.push(...direct.rows.slice(0, 7).map((r) => r.bbl));
        expect(hasMore).toBe(direct.rows.length > 7);
        if (!hasMore) break;
        const last = rows[rows.length - 1]!;
        position = [last.sort_key, last.bbl];
      }
      expect(read.length).toBeGreaterThan(20);
      expect(read).toEqual(walked);
    });

    it(`walks the score index for an owner pattern matching more than ${OWNER_CANDIDATES} buildings, which finds a page within a few rows`, async () => {
      const statements = await pageStatements({ owner: 'llc' });
      const last = statements[statements.length - 1]!;
      expect(last.values).not.toContainEqual(expect.any(Array));
      const reads = await tableReads(client, last, 'building_scores');
      expect(reads.rowsExamined).toBeLessThanOrEqual(100);
    });
  });

  it.each(['zephyr st', 'w 45 st zephyr', 'zephyr', 'zeph'])('reads the matches of "%s", not the city', async (address) => {
    const reads = await tableReads(client, search({ address }), 'buildings');
    expect(reads.scans).not.toContain('Seq Scan');
    expect(reads.rowsExamined).toBeLessThan(100);
  });

  it('reads at most EVENTS_SCANNED_PER_PAGE events of the busiest building for a filter that matches nothing, whatever the dates', async () => {
    for (const query of [{ category: 'elevator' }, { source: 'dob_violations', category: 'elevator' }, { category: 'elevator', until: '2025-12-30' }, { severity: 'critical', category: 'gas', since: '2000-01-01' }]) {
      const { filters } = parseEventsParams(query);
      const reads = await tableReads(client, eventsStatement(BUSY, filters, null, 26), 'events');
      expect(reads.rowsExamined).toBeLessThanOrEqual(EVENTS_SCANNED_PER_PAGE + 26);
      expect(reads.scans).not.toContain('Seq Scan');
    }
    // unfiltered and date-bounded pages read one page of the timeline index
    const page = await tableReads(client, eventsStatement(BUSY, parseEventsParams({ until: '2025-06-01' }).filters, null, 26), 'events');
    expect(page.rowsExamined).toBeLessThanOrEqual(26 * 2);
  });

  it("reads one event by id from the building's timeline index, not its partition", async () => {
    // other buildings' histories, so that the busiest building's partition holds more than its events
    await client.query(
      `INSERT INTO events (bbl, source, source_record_id, event_type, category, severity, occurred_on, attributes, row_hash)
       SELECT (2000000000 + (i / 400) * 10000 + 1)::text, 'nyc311', 'other-' || i, 'complaint_311', 'other', 'low', DATE '2025-01-01' - i % 900, '{}', md5(i::text)
         FROM generate_series(0, 199999) AS i`,
    );
    await client.query('ANALYZE events');
    const { rows } = await client.query<{ id: string }>(`SELECT id::text AS id FROM events WHERE bbl = $1 ORDER BY id LIMIT 1`, [BUSY]);
    const reads = await tableReads(client, eventStatement(BUSY, rows[0]?.id ?? '0'), 'events');
    // the id is checked in the building's index entries: the table gives the one event
    expect(reads.scans).not.toContain('Seq Scan');
    expect(reads.rowsExamined).toBeLessThanOrEqual(BUSY_EVENTS);
  }, 60_000);

  it('pages a filter that matches nothing to its end, a bounded read at a time', async () => {
    const repository = new EventsRepository(() => client as never);
    const { filters } = parseEventsParams({ category: 'elevator' });
    let position = null;
    let pages = 0;
    do {
      const page = await repository.page(BUSY, filters, position, 25);
      if (!page.found) throw new Error('the building is in the data set');
      expect(page.rows).toEqual([]);
      position = page.next;
      pages += 1;
    } while (position && pages < 100);
    // every read but the last one reads EVENTS_SCANNED_PER_PAGE; the last one finds the rest (here: none)
    expect(pages).toBe(Math.floor(BUSY_EVENTS / EVENTS_SCANNED_PER_PAGE) + 1);
  });
});
