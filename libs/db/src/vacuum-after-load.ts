import type { Pool } from 'pg';
import { withoutTimeout } from './transaction';

/** A table left with more dead rows than this share of its live rows is vacuumed: autovacuum's default. */
const DEAD_SHARE = 0.2;
/** ... and than this many: autovacuum's default threshold. */
const DEAD_MIN = 50;

export interface VacuumAfterLoad {
  /** The tables vacuumed and analyzed, with the dead rows each held before. */
  tables: { table: string; deadRows: number }[];
  seconds: number;
}

/**
 * `VACUUM (ANALYZE)` of the tables a load left with many dead rows, by autovacuum's default rule, so
 * that what is read next does not depend on autovacuum having caught up (or being on at all).
 * A first load of the city rewrites each building ~3 times (PLUTO, then HPD's buildings, BINs,
 * registrations and owners): with autovacuum off, `buildings` held 445,000 live and 1.56M dead rows,
 * and each page of a scoring run's targets took ~200 ms instead of a few (docs/scaling.md).
 * `bhis ingest --dir` calls it when its files are loaded.
 */
export async function vacuumAfterLoad(pool: Pool): Promise<VacuumAfterLoad> {
  const started = performance.now();
  // pg_stat_user_tables counts the dead rows whether autovacuum runs or not
  const { rows } = await pool.query<{ table: string; dead_rows: string }>(
    `SELECT format('%I.%I', schemaname, relname) AS table, n_dead_tup AS dead_rows
       FROM pg_stat_user_tables
      WHERE n_dead_tup > $1::float8 + $2::float8 * n_live_tup
      ORDER BY n_dead_tup DESC`,
    [DEAD_MIN, DEAD_SHARE],
  );
  for (const { table } of rows) await withoutTimeout(pool, (client) => client.query(`VACUUM (ANALYZE) ${table}`));
  return { tables: rows.map((r) => ({ table: r.table, deadRows: Number(r.dead_rows) })), seconds: (performance.now() - started) / 1000 };
}
