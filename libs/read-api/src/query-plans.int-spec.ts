import { Client } from 'pg';
import { createTestDatabase, seedAddressCity, tableReads, TestDatabase } from '@bhis/testing';
import { parseEventsParams } from './events/events-params';
import { eventStatement, eventsStatement, EVENTS_SCANNED_PER_PAGE } from './events/events.query';
import { EventsRepository } from './events/events.repository';
import { parseSearchParams } from './search/search-params';
import { searchStatement } from './search/search.query';
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
