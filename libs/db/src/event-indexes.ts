import type { Pool } from 'pg';

export interface IndexRebuild {
  /** Bytes of every index of `events` (all partitions) before and after. */
  bytesBefore: number;
  bytesAfter: number;
  seconds: number;
}

const INDEX_BYTES = `
  SELECT COALESCE(sum(pg_indexes_size(i.inhrelid)), 0)::float8 AS bytes
    FROM pg_inherits i WHERE i.inhparent = 'events'::regclass`;

/**
 * Rebuilds the indexes of `events` without blocking reads or writes (`REINDEX ... CONCURRENTLY`).
 * Events arrive in no particular key order, so pages of their B-trees split half-full: after the
 * first load of a city the unique record key index is about a third larger than rebuilt
 * (docs/adr/0011-event-storage-and-load-path.md). The statistics of `events` are gathered again after it.
 * `bhis ingest --dir` calls this once after loading into an empty `events`; `bhis db reindex-events`
 * does it on demand.
 */
export async function rebuildEventIndexes(pool: Pool): Promise<IndexRebuild> {
  const client = await pool.connect();
  try {
    const started = performance.now();
    const before = await client.query<{ bytes: number }>(INDEX_BYTES);
    // a city's indexes take longer than the pool's statement timeout; CONCURRENTLY runs outside a transaction
    await client.query('SET statement_timeout = 0');
    await client.query('REINDEX TABLE CONCURRENTLY events');
    // fresh statistics for the planner: without them, the scoring run's reads of a chunk of buildings
    // were planned as scans of every partition of the whole city (22 s a chunk instead of ~0.5 s)
    await client.query('ANALYZE events');
    await client.query('RESET statement_timeout');
    const after = await client.query<{ bytes: number }>(INDEX_BYTES);
    return { bytesBefore: before.rows[0].bytes, bytesAfter: after.rows[0].bytes, seconds: (performance.now() - started) / 1000 };
  } finally {
    client.release();
  }
}

/** Whether `events` holds no row at all (a first load of the city). */
export async function eventsEmpty(pool: Pool): Promise<boolean> {
  const { rows } = await pool.query<{ empty: boolean }>('SELECT NOT EXISTS (SELECT 1 FROM events) AS empty');
  return rows[0].empty;
}
