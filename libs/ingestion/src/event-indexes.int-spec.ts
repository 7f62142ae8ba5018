import { Pool } from 'pg';
import { buildDeferredEventIndexes, deferEventIndexes, eventsEmpty, rebuildEventIndexes } from '@bhis/db';
import { createTestDatabase, TestDatabase } from '@bhis/testing';

describe('the indexes of events around a first load', () => {
  let db: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 2 });
  });

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  /** Every index of events as the migrations define it, with how many partitions carry it, and whether all are valid. */
  const indexes = async () => {
    const { rows } = await pool.query<{ definition: string; partitions: number; valid: boolean }>(
      `SELECT pg_get_indexdef(x.indexrelid) AS definition, count(c.inhrelid)::int AS partitions, bool_and(cx.indisvalid) AS valid
         FROM pg_index x LEFT JOIN pg_inherits c ON c.inhparent = x.indexrelid LEFT JOIN pg_index cx ON cx.indexrelid = c.inhrelid
        WHERE x.indrelid = 'events'::regclass GROUP BY 1 ORDER BY 1`,
    );
    return rows;
  };

  it('defers the secondary indexes of a first load, and builds them again exactly as they were', async () => {
    const before = await indexes();
    expect(before.length).toBeGreaterThanOrEqual(3);
    const deferred = await deferEventIndexes(pool);
    expect(deferred).toEqual(['events_area_reporting_idx', 'events_timeline_idx']);
    // the unique record key stays: merges look records up by it
    expect((await indexes()).map((i) => i.definition)).toEqual(before.filter((i) => i.definition.startsWith('CREATE UNIQUE')).map((i) => i.definition));
    const kept = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM deferred_event_indexes`);
    expect(kept.rows[0].n).toBe(2);
    const rebuild = await rebuildEventIndexes(pool);
    expect(rebuild.built).toEqual(deferred);
    expect(await indexes()).toEqual(before);
    expect(before.every((i) => i.partitions > 1 && i.valid)).toBe(true);
    expect(await buildDeferredEventIndexes(pool)).toEqual([]);
  });

  it('shrinks B-trees filled in random key order, and every event is still found by its keys', async () => {
    expect(await eventsEmpty(pool)).toBe(true);
    // 60,000 events inserted in random key order, as a city's files arrive
    await pool.query(
      `INSERT INTO events (bbl, source, source_record_id, event_type, category, severity, status, occurred_on, description)
       SELECT lpad((1000000000 + (g % 3000) * 1000)::text, 10, '0'), 'hpd_violations', (g * 7919 % 1000003)::text, 'hpd_violation',
              'habitability', 'high', 'open', date '2020-01-01' + (g % 2000), 'violation ' || g
         FROM generate_series(1, 60000) g ORDER BY md5(g::text)`,
    );
    expect(await eventsEmpty(pool)).toBe(false);
    const rebuild = await rebuildEventIndexes(pool);
    expect(rebuild.bytesAfter).toBeLessThan(rebuild.bytesBefore * 0.85);
    const { rows } = await pool.query<{ n: string; valid: boolean }>(
      `SELECT (SELECT count(*) FROM events e WHERE e.bbl = '1000001000' AND e.source = 'hpd_violations' AND e.event_type = 'hpd_violation') AS n,
              bool_and(x.indisvalid) AS valid
         FROM pg_inherits i JOIN pg_index x ON x.indrelid = i.inhrelid WHERE i.inhparent = 'events'::regclass`,
    );
    expect(Number(rows[0].n)).toBe(20);
    expect(rows[0].valid).toBe(true);
    // and the planner has statistics of every partition that holds events
    const analyzed = await pool.query<{ partitions: string; analyzed: string }>(
      `SELECT count(*) AS partitions, count(*) FILTER (WHERE s.last_analyze IS NOT NULL) AS analyzed
         FROM pg_inherits i JOIN pg_stat_user_tables s ON s.relid = i.inhrelid WHERE i.inhparent = 'events'::regclass`,
    );
    expect(Number(analyzed.rows[0].partitions)).toBeGreaterThan(1);
    expect(analyzed.rows[0].analyzed).toBe(analyzed.rows[0].partitions);
  });

  /** Runs of one BBL in the order of the heap, and distinct BBLs: equal when each building's events lie side by side. */
  const heapRuns = async () => {
    const { rows } = await pool.query<{ runs: number; bbls: number; events: number }>(
      `SELECT count(*) FILTER (WHERE prev IS DISTINCT FROM bbl)::int AS runs, count(DISTINCT bbl)::int AS bbls, count(*)::int AS events
         FROM (SELECT bbl, lag(bbl) OVER (PARTITION BY tableoid ORDER BY ctid) AS prev FROM events) x`,
    );
    return rows[0];
  };

  it('after a first load, writes each partition in building order, then builds the deferred indexes on it', async () => {
    const before = await indexes();
    const scattered = await heapRuns();
    // the events above were inserted in random key order
    expect(scattered.runs).toBeGreaterThan(scattered.bbls * 5);
    const deferred = await deferEventIndexes(pool);
    const rebuild = await rebuildEventIndexes(pool, { cluster: true });
    expect(rebuild.built).toEqual(deferred);
    expect(await indexes()).toEqual(before);
    expect(before.every((i) => i.valid)).toBe(true);
    const ordered = await heapRuns();
    expect(ordered).toEqual({ runs: scattered.bbls, bbls: scattered.bbls, events: scattered.events });
    // the unique record key, rebuilt compact by the test above, is rewritten as compact
    expect(rebuild.bytesAfter).toBeLessThanOrEqual(rebuild.bytesBefore * 1.01);
    const found = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE bbl = '1000001000' AND source = 'hpd_violations'`);
    expect(found.rows[0].n).toBe(20);
  });

  it('tells the planner each partition holds an even share of the buildings, not what a sample of events suggests', async () => {
    // the 3,000 BBLs of the events above, as buildings
    await pool.query(
      `INSERT INTO buildings (bbl, borough, block, lot, address)
       SELECT lpad((1000000000 + g * 1000)::text, 10, '0'), 1, g, 1, g || ' TEST STREET' FROM generate_series(0, 2999) g`,
    );
    await rebuildEventIndexes(pool);
    const { rows } = await pool.query<{ partition: string; option: string | null; analyzed: number; bbls: number }>(
      `SELECT c.oid::regclass::text AS partition,
              (SELECT o.option_value FROM pg_options_to_table(a.attoptions) o WHERE o.option_name = 'n_distinct') AS option,
              (SELECT s.n_distinct::int FROM pg_stats s WHERE s.tablename = c.relname AND s.attname = 'bbl' AND NOT s.inherited) AS analyzed,
              (SELECT count(DISTINCT e.bbl)::int FROM events e WHERE e.tableoid = c.oid) AS bbls
         FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'bbl'
        WHERE i.inhparent = 'events'::regclass ORDER BY 1`,
    );
    // every BBL has events here, so each partition's buildings are its BBLs: about an even share each
    expect(rows.reduce((sum, r) => sum + r.bbls, 0)).toBe(3000);
    const share = Math.round(3000 / rows.length);
    for (const r of rows) {
      expect(r.option).toBe(String(share));
      expect(r.analyzed).toBe(share);
      expect(Math.abs(r.bbls - share)).toBeLessThan(share * 0.3);
    }
    await pool.query('DELETE FROM buildings');
  });

  it('fails as a whole when one partition cannot be rebuilt, and the next rebuild drops what a failed one left', async () => {
    // a session that waits at most 300 ms for a lock meets a partition another session holds
    const impatient = new Pool({ connectionString: db.url, max: 2, options: '-c lock_timeout=300' });
    const holder = await pool.connect();
    try {
      const partitions = await pool.query<{ name: string }>(`SELECT inhrelid::regclass::text AS name FROM pg_inherits WHERE inhparent = 'events'::regclass ORDER BY 1`);
      const locked = partitions.rows[Math.floor(partitions.rows.length / 2)].name;
      await holder.query('BEGIN');
      await holder.query(`LOCK TABLE ${locked} IN SHARE UPDATE EXCLUSIVE MODE`);
      await expect(rebuildEventIndexes(impatient)).rejects.toThrow(/lock timeout/);
      await holder.query('ROLLBACK');
      // nothing left behind by the rebuild that failed (REINDEX CONCURRENTLY builds a `_ccnew` index first)
      const leftovers = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_index x JOIN pg_inherits i ON i.inhrelid = x.indrelid
          WHERE i.inhparent = 'events'::regclass AND NOT x.indisvalid`,
      );
      expect(leftovers.rows[0].n).toBe(0);
      // what a rebuild that fails half-way leaves: an invalid `_ccnew` index, dropped by the next rebuild
      await expect(pool.query(`CREATE UNIQUE INDEX CONCURRENTLY ${locked}_key_ccnew ON ${locked} (event_type)`)).rejects.toThrow(/could not create unique index/);
      const again = await rebuildEventIndexes(impatient);
      expect(again.seconds).toBeGreaterThan(0);
      const invalid = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_index x JOIN pg_inherits i ON i.inhrelid = x.indrelid
          WHERE i.inhparent = 'events'::regclass AND NOT x.indisvalid`,
      );
      expect(invalid.rows[0].n).toBe(0);
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      holder.release();
      await impatient.end();
    }
  });

  it('fails as a whole when one partition cannot be written in order, keeping every event, and the deferred indexes are built after', async () => {
    const impatient = new Pool({ connectionString: db.url, max: 2, options: '-c lock_timeout=300' });
    const reader = await pool.connect();
    try {
      const before = await indexes();
      const events = (await heapRuns()).events;
      const partitions = await pool.query<{ name: string }>(`SELECT inhrelid::regclass::text AS name FROM pg_inherits WHERE inhparent = 'events'::regclass ORDER BY 1`);
      const deferred = await deferEventIndexes(pool);
      // a reader in the middle of a transaction on one partition: its CLUSTER cannot take the partition
      await reader.query('BEGIN');
      await reader.query(`SELECT count(*) FROM ${partitions.rows[Math.floor(partitions.rows.length / 2)].name}`);
      await expect(rebuildEventIndexes(impatient, { cluster: true })).rejects.toThrow(/lock timeout/);
      await reader.query('ROLLBACK');
      // what `bhis ingest --dir` does whatever happened
      expect(await buildDeferredEventIndexes(pool)).toEqual(deferred);
      expect(await indexes()).toEqual(before);
      expect((await heapRuns()).events).toBe(events);
    } finally {
      await reader.query('ROLLBACK').catch(() => undefined);
      reader.release();
      await impatient.end();
    }
  });
});
