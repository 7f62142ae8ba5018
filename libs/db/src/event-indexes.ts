import { escapeIdentifier, type Pool } from 'pg';
import { inTransaction, withoutTimeout } from './transaction';

export interface IndexRebuild {
  /** The deferred indexes built (deferEventIndexes): before the others were rebuilt, or after the rewrite. */
  built: string[];
  /** Whether the partitions were rewritten in building order (`cluster`) rather than reindexed. */
  clustered: boolean;
  /** Bytes of the indexes of `events` (all partitions) rebuilt or rewritten, before and after (the built ones counted in both, or in neither). */
  bytesBefore: number;
  bytesAfter: number;
  seconds: number;
}

const INDEX_BYTES = `
  SELECT COALESCE(sum(pg_indexes_size(i.inhrelid)), 0)::float8 AS bytes
    FROM pg_inherits i WHERE i.inhparent = 'events'::regclass`;

/**
 * Drops the secondary (not unique) indexes of `events` for a first load of the city, their definitions
 * kept in `deferred_event_indexes`; returns their names. Inserting millions of events into an
 * index in no particular key order costs more than building it once they are all there: on the 10%
 * city, the timeline and complaints indexes took half the time of writing the complaints
 * (docs/adr/0011-event-storage-and-load-path.md). The unique record key stays: merges look records up by it.
 * `buildDeferredEventIndexes` builds them again (rebuildEventIndexes calls it).
 */
export async function deferEventIndexes(pool: Pool): Promise<string[]> {
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query<{ name: string; definition: string }>(
      `SELECT c.relname AS name, pg_get_indexdef(c.oid) AS definition
         FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid
        WHERE x.indrelid = 'events'::regclass AND NOT x.indisunique ORDER BY 1`,
    );
    for (const { name, definition } of rows) {
      await client.query(`INSERT INTO deferred_event_indexes (name, definition) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [name, definition]);
      await client.query(`DROP INDEX ${escapeIdentifier(name)}`);
    }
    return rows.map((r) => r.name);
  });
}

/**
 * Builds the indexes of `events` deferEventIndexes dropped (on every partition, as the migrations
 * created them) and forgets their definitions; returns their names. Writes to `events` wait meanwhile,
 * reads do not. Two processes may call it at once: one builds, the other finds nothing left.
 */
export async function buildDeferredEventIndexes(pool: Pool): Promise<string[]> {
  const { rows } = await pool.query<{ name: string }>(`SELECT name FROM deferred_event_indexes ORDER BY name`);
  const built: string[] = [];
  for (const { name } of rows) {
    await inTransaction(pool, async (client) => {
      // a city's index takes longer than the pool's statement timeout
      await client.query('SET LOCAL statement_timeout = 0');
      const deferred = await client.query<{ definition: string }>(`SELECT definition FROM deferred_event_indexes WHERE name = $1 FOR UPDATE`, [name]);
      if (deferred.rows.length === 0) return;
      // the definition of a partitioned table's index reads `ON ONLY`: without it, the index is built on every partition too
      await client.query(deferred.rows[0].definition.replace(/^CREATE INDEX (\S+) ON (ONLY )?/, 'CREATE INDEX IF NOT EXISTS $1 ON '));
      await client.query(`DELETE FROM deferred_event_indexes WHERE name = $1`, [name]);
      built.push(name);
    });
  }
  return built;
}

export interface RebuildOptions {
  /**
   * Rewrite each partition in the order of the unique record key, which begins with the BBL (`CLUSTER`),
   * before the deferred indexes are built. A first load writes events source by source, so a building's
   * events lie one per page across its whole partition; written in BBL order they lie on a few pages
   * side by side. A `CLUSTER` holds an exclusive lock on its partition: reads of the events in it wait
   * (docs/adr/0017-events-in-building-order.md).
   */
  cluster?: boolean;
  /** Connections working at once, each on one partition at a time. */
  connections?: number;
}

/**
 * After a large load: either rewrites every partition in BBL order (`cluster`, which rebuilds each
 * partition's indexes too) and then builds the deferred indexes of a first load, or builds the
 * deferred indexes and rebuilds the others without blocking reads or writes (`REINDEX ...
 * CONCURRENTLY`). Two partitions at a time.
 * Events arrive in no particular key order, so pages of their B-trees split half-full: after the
 * first load of a city the unique record key index is about a third larger than rebuilt
 * (docs/adr/0011-event-storage-and-load-path.md). The statistics of `events` are gathered again after it.
 * `bhis ingest --dir` calls this with `cluster` once after loading into an empty `events`;
 * `bhis db reindex-events` does it on demand.
 */
export async function rebuildEventIndexes(pool: Pool, options: RebuildOptions = {}): Promise<IndexRebuild> {
  const started = performance.now();
  const connections = options.connections ?? REBUILD_CONNECTIONS;
  const clustered = Boolean(options.cluster);
  await dropAbandonedRebuilds(pool);
  let built: string[];
  let bytes: { before: number; after: number };
  if (clustered) {
    bytes = await indexBytesAround(pool, async () =>
      onEachPartition(pool, connections, await uniqueKeyByPartition(pool), (partition, index) => [`CLUSTER ${partition} USING ${index}`]),
    );
    // built once, on the ordered pages
    built = await buildDeferredEventIndexes(pool);
  } else {
    built = await buildDeferredEventIndexes(pool);
    // per partition, its indexes but those just built
    const { rows } = await pool.query<{ partition: string; indexes: string[] }>(
      `SELECT cx.indrelid::regclass::text AS partition, array_agg(child.inhrelid::regclass::text ORDER BY child.inhrelid::regclass::text) AS indexes
         FROM pg_index x JOIN pg_inherits child ON child.inhparent = x.indexrelid JOIN pg_index cx ON cx.indexrelid = child.inhrelid
        WHERE x.indrelid = 'events'::regclass AND NOT (x.indexrelid::regclass::text = ANY ($1::text[]))
        GROUP BY cx.indrelid ORDER BY cx.indrelid::regclass::text`,
      [built],
    );
    bytes = await indexBytesAround(pool, () =>
      onEachPartition(pool, connections, rows.map((r) => [r.partition, r.indexes] as const), (_, indexes) => indexes.map((index) => `REINDEX INDEX CONCURRENTLY ${index}`)),
    );
  }
  // fresh statistics for the planner: without them, the scoring run's reads of a chunk of buildings
  // were planned as scans of every partition of the whole city (22 s a chunk instead of ~0.5 s)
  await setBblCounts(pool);
  await withoutTimeout(pool, (client) => client.query('ANALYZE events'));
  return { built, clustered, bytesBefore: bytes.before, bytesAfter: bytes.after, seconds: (performance.now() - started) / 1000 };
}

/** Bytes of every index of `events` before and after `work`. */
async function indexBytesAround(pool: Pool, work: () => Promise<void>): Promise<{ before: number; after: number }> {
  const before = (await pool.query<{ bytes: number }>(INDEX_BYTES)).rows[0].bytes;
  await work();
  const after = (await pool.query<{ bytes: number }>(INDEX_BYTES)).rows[0].bytes;
  return { before, after };
}

/** Each partition of `events` with the name of its unique record key index. */
async function uniqueKeyByPartition(pool: Pool): Promise<(readonly [string, string])[]> {
  const { rows } = await pool.query<{ partition: string; index: string }>(
    `SELECT cx.indrelid::regclass::text AS partition, child.inhrelid::regclass::text AS index
       FROM pg_index x JOIN pg_inherits child ON child.inhparent = x.indexrelid JOIN pg_index cx ON cx.indexrelid = child.inhrelid
      WHERE x.indrelid = 'events'::regclass AND x.indisunique ORDER BY 1`,
  );
  return rows.map((r) => [r.partition, r.index] as const);
}

/**
 * Runs the statement(s) of each partition on `connections` connections, the partitions one after the
 * other on each (two rebuilds of one table at once wait for each other): one sorts on one core. A
 * failure stops the other connections after their current partition, and is thrown once all have stopped.
 */
async function onEachPartition<T>(pool: Pool, connections: number, partitions: (readonly [string, T])[], statements: (partition: string, of: T) => string[]): Promise<void> {
  const queue = [...partitions];
  const runs = await Promise.allSettled(
    Array.from({ length: Math.max(1, Math.min(connections, queue.length)) }, () =>
      withoutTimeout(pool, async (client) => {
        try {
          for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
            for (const sql of statements(next[0], next[1])) await client.query(sql);
          }
        } catch (error) {
          queue.length = 0;
          throw error;
        }
      }),
    ),
  );
  const failed = runs.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    // the other connection may have stopped half-way too (its REINDEX waits for the failed one's
    // transaction, under the same lock_timeout), leaving a `_ccnew` index: dropped now, and by the
    // next rebuild if this drop fails too. A CLUSTER that fails leaves its partition as it was.
    await dropAbandonedRebuilds(pool).catch(() => undefined);
    throw failed.reason;
  }
}

/**
 * Tells the planner how many BBLs each partition of `events` holds: the buildings that hash into it,
 * an even share of them (hash partitions take ~1/N each: off by ~1% for 27,800 buildings, where
 * counting them with `satisfies_hash_partition` took 86 s on the whole city). ANALYZE estimates it
 * from a sample of 30,000 rows, and a few buildings with tens of thousands of events each fill the
 * sample: on the whole city it found ~7,400 of a partition's ~27,800 BBLs, so a chunk of 2,000
 * buildings looked like a quarter of every partition and its read was planned as a scan of them all
 * (docs/adr/0011-event-storage-and-load-path.md). ANALYZE keeps a count set this way; every rebuild sets it again.
 */
export async function setBblCounts(pool: Pool): Promise<void> {
  const { rows } = await pool.query<{ partition: string; buildings: number }>(
    `SELECT c.oid::regclass::text AS partition,
            round((SELECT count(*) FROM buildings)::numeric / count(*) OVER ())::int AS buildings
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'events'::regclass ORDER BY 1`,
  );
  for (const { partition, buildings } of rows) {
    // no building yet: the sample's estimate stands
    const option = buildings > 0 ? `SET (n_distinct = ${buildings})` : 'RESET (n_distinct)';
    await pool.query(`ALTER TABLE ${partition} ALTER COLUMN bbl ${option}`);
  }
  const total = rows.reduce((sum, r) => sum + r.buildings, 0);
  await pool.query(`ALTER TABLE events ALTER COLUMN bbl ${total > 0 ? `SET (n_distinct_inherited = ${total})` : 'RESET (n_distinct_inherited)'}`);
}

/**
 * A `REINDEX ... CONCURRENTLY` that failed half-way (a disk that filled up, a cancelled statement)
 * leaves its new index behind, invalid and named `<index>_ccnew`: it is dropped before rebuilding again.
 */
async function dropAbandonedRebuilds(pool: Pool): Promise<void> {
  const { rows } = await pool.query<{ name: string }>(
    `SELECT x.indexrelid::regclass::text AS name
       FROM pg_index x JOIN pg_inherits i ON i.inhrelid = x.indrelid JOIN pg_class c ON c.oid = x.indexrelid
      WHERE i.inhparent = 'events'::regclass AND NOT x.indisvalid AND c.relname ~ '_ccnew[0-9]*$'`,
  );
  for (const { name } of rows) await withoutTimeout(pool, (client) => client.query(`DROP INDEX CONCURRENTLY ${name}`));
}

/** Rebuilds at once: one per core of a machine like the one in docs/scaling.md. */
const REBUILD_CONNECTIONS = 2;

/** Whether `events` holds no row at all (a first load of the city). */
export async function eventsEmpty(pool: Pool): Promise<boolean> {
  const { rows } = await pool.query<{ empty: boolean }>('SELECT NOT EXISTS (SELECT 1 FROM events) AS empty');
  return rows[0].empty;
}
