import type { Pool, PoolClient } from 'pg';

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
 * Rebuilds the indexes of `events` without blocking reads or writes (`REINDEX ... CONCURRENTLY`), two
 * partitions at a time.
 * Events arrive in no particular key order, so pages of their B-trees split half-full: after the
 * first load of a city the unique record key index is about a third larger than rebuilt
 * (docs/adr/0011-event-storage-and-load-path.md). The statistics of `events` are gathered again after it.
 * `bhis ingest --dir` calls this once after loading into an empty `events`; `bhis db reindex-events`
 * does it on demand.
 */
export async function rebuildEventIndexes(pool: Pool, connections = REBUILD_CONNECTIONS): Promise<IndexRebuild> {
  const started = performance.now();
  const before = await pool.query<{ bytes: number }>(INDEX_BYTES);
  const { rows } = await pool.query<{ partition: string }>(
    `SELECT i.inhrelid::regclass::text AS partition FROM pg_inherits i WHERE i.inhparent = 'events'::regclass ORDER BY 1`,
  );
  const partitions = rows.map((r) => r.partition);
  // the partitions one after the other on each connection: one REINDEX sorts on one core; a failure
  // stops the other connection after its current partition, and is thrown once both have stopped
  const rebuilds = await Promise.allSettled(
    Array.from({ length: Math.max(1, Math.min(connections, partitions.length)) }, () =>
      withoutTimeout(pool, async (client) => {
        try {
          for (let next = partitions.shift(); next !== undefined; next = partitions.shift()) await client.query(`REINDEX TABLE CONCURRENTLY ${next}`);
        } catch (error) {
          partitions.length = 0;
          throw error;
        }
      }),
    ),
  );
  const failed = rebuilds.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  // fresh statistics for the planner: without them, the scoring run's reads of a chunk of buildings
  // were planned as scans of every partition of the whole city (22 s a chunk instead of ~0.5 s)
  await withoutTimeout(pool, (client) => client.query('ANALYZE events'));
  const after = await pool.query<{ bytes: number }>(INDEX_BYTES);
  return { bytesBefore: before.rows[0].bytes, bytesAfter: after.rows[0].bytes, seconds: (performance.now() - started) / 1000 };
}

/** Rebuilds at once: one per core of a machine like the one in docs/scaling.md. */
const REBUILD_CONNECTIONS = 2;

/** A city's indexes take longer than the pool's statement timeout; CONCURRENTLY runs outside a transaction. */
async function withoutTimeout<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('SET statement_timeout = 0');
    const result = await work(client);
    await client.query('RESET statement_timeout');
    return result;
  } finally {
    client.release();
  }
}

/** Whether `events` holds no row at all (a first load of the city). */
export async function eventsEmpty(pool: Pool): Promise<boolean> {
  const { rows } = await pool.query<{ empty: boolean }>('SELECT NOT EXISTS (SELECT 1 FROM events) AS empty');
  return rows[0].empty;
}
