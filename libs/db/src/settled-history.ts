import type { PoolClient } from 'pg';

/**
 * A building's settled history: its events dated before a horizon, counted once and kept in
 * `settled_histories` / `settled_history_groups` (migration 1763703000000, docs/adr/0015-settled-histories.md).
 * Scoring owns the summaries; the writers of `events` only say which buildings' summaries no longer
 * hold, by raising epochs. This module is what both sides share.
 */

/** The horizon of a run as of `asOf` (YYYY-MM-DD): the first of January five years before its year. */
export function settledHorizon(asOf: string): string {
  return `${Number(asOf.slice(0, 4)) - 5}-01-01`;
}

/**
 * The latest horizon any run may use today: that of an as-of date up to the end of next year. An
 * event dated before it may be counted in a summary, so a merge that writes one raises its
 * building's epoch; a run whose horizon is later does without summaries.
 */
export const SETTLED_BOUND_SQL = `make_date(extract(year FROM current_date)::int - 4, 1, 1)`;

/**
 * Runs `write` with the summaries kept by the caller: its statements on `events` do not raise the
 * epoch of all buildings (the trigger of migration 1763703000000); the caller raises the epochs of
 * the buildings it touched with `forgetSettledHistories`.
 */
export async function keepingSettledHistories<T>(client: PoolClient, keep: boolean, write: () => Promise<T>): Promise<T> {
  if (!keep) return write();
  await client.query(`SET LOCAL bhis.settled_histories_kept = 'on'`);
  // a failed write aborts the transaction, and the setting with it
  const written = await write();
  await client.query(`SET LOCAL bhis.settled_histories_kept = 'off'`);
  return written;
}

/**
 * The statement that raises the epoch of each building of `touched` (a relation or a parenthesized
 * query of two columns, the BBL and the date of an event written, stored and new dates alike) with an
 * event undated or dated before the bound. It can stand in a WITH clause.
 */
export function forgetSettledSql(touched: string): string {
  return `INSERT INTO settled_history_epochs (bbl, epoch)
     SELECT DISTINCT t.bbl, 1 FROM ${touched} t(bbl, occurred_on)
      WHERE t.occurred_on IS NULL OR t.occurred_on < ${SETTLED_BOUND_SQL}
     ON CONFLICT (bbl) DO UPDATE SET epoch = settled_history_epochs.epoch + 1`;
}

/** Runs `forgetSettledSql` of the query `touched`; returns the number of buildings whose summaries no longer hold. */
export async function forgetSettledHistories(client: PoolClient, touched: string, values: unknown[] = []): Promise<number> {
  const { rowCount } = await client.query(forgetSettledSql(`(${touched})`), values);
  return rowCount ?? 0;
}
