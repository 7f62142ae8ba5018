import { createWriteStream, createReadStream } from 'node:fs';
import { stat, unlink } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { Client, Pool } from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { EVENT_PARTITIONS, migrate } from '@bhis/db';

export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function withClient<T>(url: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Drops and recreates a database, then applies every migration. Returns its URL. */
export async function recreateDatabase(adminUrl: string, database: string): Promise<string> {
  if (!/^[a-z0-9_]+$/.test(database)) throw new Error(`unsafe database name ${database}`);
  await withClient(adminUrl, async (admin) => {
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${database}"`);
  });
  const url = databaseUrl(adminUrl, database);
  await migrate(url);
  return url;
}

/** Drops a database of the benchmark's own (one it created). */
export async function dropDatabase(adminUrl: string, database: string): Promise<void> {
  if (!/^[a-z0-9_]+$/.test(database)) throw new Error(`unsafe database name ${database}`);
  await withClient(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
}

export async function serverVersion(url: string): Promise<string> {
  return withClient(url, async (client) => (await client.query<{ v: string }>(`SELECT current_setting('server_version') AS v`)).rows[0]?.v ?? 'unknown');
}

export interface TableSize {
  table: string;
  rows: number;
  /** heap + TOAST of the table (all partitions), bytes */
  tableBytes: number;
  indexBytes: number;
  totalBytes: number;
  indexes: { index: string; bytes: number }[];
}

/** Size of every table of the public schema (partitions summed into their parent) and of each index. */
export async function tableSizes(pool: Pool): Promise<TableSize[]> {
  const tables = await pool.query<{ table: string; table_bytes: string; index_bytes: string; total_bytes: string }>(
    `WITH parts AS (
       -- a plain table stands for itself; a partitioned one for all its partitions
       SELECT c.oid AS parent, CASE WHEN c.relkind = 'p' THEN t.relid ELSE c.oid END AS relid
         FROM pg_class c LEFT JOIN LATERAL pg_partition_tree(c.oid) t ON c.relkind = 'p'
        WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition
     )
     SELECT c.relname AS table,
            (SELECT sum(pg_table_size(p.relid)) FROM parts p WHERE p.parent = c.oid) AS table_bytes,
            (SELECT sum(pg_indexes_size(p.relid)) FROM parts p WHERE p.parent = c.oid) AS index_bytes,
            (SELECT sum(pg_total_relation_size(p.relid)) FROM parts p WHERE p.parent = c.oid) AS total_bytes
       FROM pg_class c
      WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition
      ORDER BY 4 DESC`,
  );
  const indexes = await pool.query<{ table: string; index: string; bytes: string }>(
    `SELECT c.relname AS table, i.relname AS index,
            CASE WHEN i.relkind = 'I' THEN (SELECT sum(pg_relation_size(t.relid)) FROM pg_partition_tree(i.oid) t) ELSE pg_relation_size(i.oid) END AS bytes
       FROM pg_index x
       JOIN pg_class i ON i.oid = x.indexrelid
       JOIN pg_class c ON c.oid = x.indrelid
      WHERE c.relnamespace = 'public'::regnamespace AND NOT c.relispartition
      ORDER BY 3 DESC`,
  );
  const result: TableSize[] = [];
  for (const row of tables.rows) {
    const count = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM "${row.table}"`);
    result.push({
      table: row.table,
      rows: Number(count.rows[0]?.n ?? 0),
      tableBytes: Number(row.table_bytes),
      indexBytes: Number(row.index_bytes),
      totalBytes: Number(row.total_bytes),
      indexes: indexes.rows.filter((i) => i.table === row.table).map((i) => ({ index: i.index, bytes: Number(i.bytes) })),
    });
  }
  return result;
}

export interface CopyCeiling {
  rows: number;
  bytes: number;
  copyOutSeconds: number;
  copyInSeconds: number;
  rowsPerSecond: number;
  megabytesPerSecond: number;
}

const CEILING_TABLE = 'bench_copy_ceiling_events';

/**
 * The ingest ceiling: COPY the normalized events out to a file, then COPY them back into an empty
 * table identical to `events` (same columns, keys, indexes and hash partitions). No parsing, no
 * normalization, no merge: the fastest Postgres can take these rows on this machine.
 */
export async function measureCopyCeiling(url: string, file: string): Promise<CopyCeiling> {
  return withClient(url, async (client) => {
    const outStarted = Date.now();
    await pipeline(client.query(copyTo(`COPY (SELECT * FROM events) TO STDOUT`)), createWriteStream(file));
    const copyOutSeconds = (Date.now() - outStarted) / 1000;
    const bytes = (await stat(file)).size;
    await client.query(`DROP TABLE IF EXISTS ${CEILING_TABLE}`);
    await client.query(`CREATE TABLE ${CEILING_TABLE} (LIKE events INCLUDING ALL) PARTITION BY HASH (bbl)`);
    for (let i = 0; i < EVENT_PARTITIONS; i++) {
      await client.query(`CREATE TABLE ${CEILING_TABLE}_p${i} PARTITION OF ${CEILING_TABLE} FOR VALUES WITH (MODULUS ${EVENT_PARTITIONS}, REMAINDER ${i})`);
    }
    try {
      const inStarted = Date.now();
      const copy = client.query(copyFrom(`COPY ${CEILING_TABLE} FROM STDIN`));
      await pipeline(createReadStream(file), copy);
      const copyInSeconds = (Date.now() - inStarted) / 1000;
      const rows = Number(copy.rowCount ?? 0);
      return {
        rows,
        bytes,
        copyOutSeconds,
        copyInSeconds,
        rowsPerSecond: Math.round(rows / copyInSeconds),
        megabytesPerSecond: Math.round((bytes / 1e6 / copyInSeconds) * 10) / 10,
      };
    } finally {
      await client.query(`DROP TABLE IF EXISTS ${CEILING_TABLE}`);
      await unlink(file).catch(() => undefined);
    }
  });
}

export interface CsvCopyCeiling {
  file: string;
  rows: number;
  /** true when only the file's first CSV_CEILING_MAX_ROWS rows were copied (absent in older results) */
  firstRowsOnly?: boolean;
  /** bytes of the file on disk (compressed when it is) */
  bytes: number;
  seconds: number;
  rowsPerSecond: number;
}

const CSV_CEILING_TABLE = 'bench_copy_ceiling_csv';

/**
 * The ceiling of one source file: the CSV as it is, COPY'd into an UNLOGGED table of text columns
 * (one per header column): no parsing of values, no normalization, no keys, no merge.
 */
/**
 * A file's first rows are enough for the ceiling's rate; a whole-city file would need tens of GB of
 * text table beside the city (the 10% city's largest file is 5.8M rows: copied whole).
 */
export const CSV_CEILING_MAX_ROWS = 10_000_000;

/** Passes the text up to the end of its `maxLines`-th line, then ends (the synthetic files have no line breaks inside fields). */
function firstLines(maxLines: number): Transform & { cut: () => boolean } {
  let lines = 0;
  let cut = false;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (cut) return done();
      let at = -1;
      while (lines < maxLines && (at = chunk.indexOf(10, at + 1)) !== -1) lines++;
      if (lines < maxLines) return done(null, chunk);
      cut = true;
      done(null, chunk.subarray(0, at + 1));
    },
  });
  return Object.assign(stream, { cut: () => cut });
}

export async function measureCsvCopyCeiling(url: string, file: string): Promise<CsvCopyCeiling> {
  const gzip = file.endsWith('.gz');
  const header = await firstLine(file, gzip);
  const columns = header.split(',').map((_, i) => `c${i} text`).join(', ');
  return withClient(url, async (client) => {
    await client.query(`DROP TABLE IF EXISTS ${CSV_CEILING_TABLE}`);
    await client.query(`CREATE UNLOGGED TABLE ${CSV_CEILING_TABLE} (${columns})`);
    try {
      const started = Date.now();
      const copy = client.query(copyFrom(`COPY ${CSV_CEILING_TABLE} FROM STDIN (FORMAT csv, HEADER true)`));
      const head = firstLines(CSV_CEILING_MAX_ROWS + 1);
      await (gzip ? pipeline(createReadStream(file), createGunzip(), head, copy) : pipeline(createReadStream(file), head, copy));
      const seconds = (Date.now() - started) / 1000;
      const rows = Number(copy.rowCount ?? 0);
      return { file, rows, firstRowsOnly: head.cut(), bytes: (await stat(file)).size, seconds, rowsPerSecond: Math.round(rows / seconds) };
    } finally {
      await client.query(`DROP TABLE IF EXISTS ${CSV_CEILING_TABLE}`);
    }
  });
}

async function firstLine(file: string, gzip: boolean): Promise<string> {
  let text = '';
  const stream = gzip ? createReadStream(file).pipe(createGunzip()) : createReadStream(file);
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    text += chunk.toString('utf8');
    const end = text.indexOf('\n');
    if (end !== -1) {
      stream.destroy();
      return text.slice(0, end).replace(/\r$/, '').replace(/^\ufeff/, '');
    }
  }
  return text;
}

export interface EventStorage {
  eventRows: number;
  /** events heap + TOAST + every index of events */
  eventBytes: number;
  eventBytesPerRow: number;
  databaseBytes: number;
  databaseBytesPerEvent: number;
}

/** Bytes per stored event, all-in, and the whole database per event (after VACUUM). */
export async function eventStorage(pool: Pool): Promise<EventStorage> {
  const { rows } = await pool.query<{ n: string; events: string; db: string }>(
    `SELECT (SELECT count(*) FROM events) AS n,
            (SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree('events'::regclass)) AS events,
            pg_database_size(current_database()) AS db`,
  );
  const eventRows = Number(rows[0].n);
  const eventBytes = Number(rows[0].events);
  const databaseBytes = Number(rows[0].db);
  return {
    eventRows,
    eventBytes,
    eventBytesPerRow: eventRows ? Math.round(eventBytes / eventRows) : 0,
    databaseBytes,
    databaseBytesPerEvent: eventRows ? Math.round(databaseBytes / eventRows) : 0,
  };
}
