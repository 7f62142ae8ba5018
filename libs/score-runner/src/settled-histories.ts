import type { PoolClient } from 'pg';
import type { AgeBucket } from '@bhis/scoring';
import type { HistogramSqlRow } from './histogram-row';

/**
 * The settled histories of a chunk's buildings (docs/adr/0015-settled-histories.md): each building's
 * events dated before the run's horizon, grouped as the histogram groups them less the age (all are
 * in the oldest bucket) and the open state as of the run (kept as the status, and the closing date
 * where the record closes late enough to be open on a later as-of date). Counted from the events
 * once, kept in `settled_history_groups` and read again by later runs while the epochs they were
 * counted at hold (libs/db/src/settled-history.ts).
 */

export interface SettledGroupSqlRow {
  bbl: string;
  /**
   * The group's values as `source|event_type|category|severity|status open|excluded|undated`, the last
   * three as `t` or `f` (status open: `n` for a record without a status): `cellText`.
   */
  cell: string;
  /** the closing date of a record closed that a later as-of date may see open */
  closes_on: string | null;
  count: number;
  amount: number;
  /** the ids of the group's newest events, newest first, as `id,id,id` */
  newest_event_ids: string;
  /** their dates, as `YYYY-MM-DD,YYYY-MM-DD` (empty when undated) */
  newest_event_dates: string;
  newest_occurred_on: string | null;
}

/** A boolean SQL expression as one letter: `t`, `f`, or `n` where it is null. */
export function letter(expr: string): string {
  return `CASE ${expr} WHEN true THEN 't' WHEN false THEN 'f' ELSE 'n' END`;
}

/**
 * SQL values as one text, `|` between them: the scoring process receives one text column in place of
 * several and parses each distinct text once (building-input.ts). The values are enum labels, age
 * buckets and letters, none of which holds a `|`.
 */
export function cellText(values: readonly string[]): string {
  return `concat_ws('|', ${values.join(', ')})`;
}

/**
 * The event types whose records carry money (`amount`, `balance_due`, `penalty`: the definitions of
 * hpd-emergency-repairs, dob-ecb-violations and hpd-litigations): the attributes of other events are
 * not read.
 */
const MONEY_TYPES = ['emergency_repair_omo', 'emergency_repair_hwo', 'ecb_violation', 'hpd_litigation'];

/** Money amount of an event in dollars: emergency repair charges, ECB balance due, litigation penalty. */
export const AMOUNT_SQL = `CASE WHEN e.event_type IN (${MONEY_TYPES.map((t) => `'${t}'`).join(', ')}) THEN COALESCE(
  CASE WHEN jsonb_typeof(e.attributes -> 'amount') = 'number' THEN (e.attributes ->> 'amount')::numeric END,
  CASE WHEN jsonb_typeof(e.attributes -> 'balance_due') = 'number' THEN (e.attributes ->> 'balance_due')::numeric END,
  CASE WHEN jsonb_typeof(e.attributes -> 'penalty') = 'number' THEN (e.attributes ->> 'penalty')::numeric END,
  0) ELSE 0 END`;

/**
 * A chunk's events for grouping, in the timeline index's order (newest first within a building): the
 * hash aggregation above takes each group's rows in this order, so the first ids it collects are
 * the newest (an ordered aggregate would sort every group instead, twice the time of the read).
 */
export function eventsInTimelineOrder(where: string): string {
  return `(SELECT id, bbl, source, event_type, category, severity, status, occurred_on, closed_on, scoring_excluded, attributes
             FROM events WHERE bbl = ANY($1::char(10)[]) AND ${where}
            ORDER BY bbl, occurred_on DESC NULLS LAST, id DESC) e`;
}

/**
 * The planner settings of a chunk's histogram read. The planner cannot tell how many of a chunk's
 * BBLs fall in each hash partition: it counts all of them in every partition, 16 times the rows there
 * are, and then plans a parallel scan of every partition (or a bitmap scan, with JIT compilation) for
 * what the timeline index serves in BBL order. On the whole city a chunk of 2,000 buildings of Queens
 * took 70 s as a sequential scan and 1.5 s read by the index (docs/benchmarks.json, notes). The same count
 * makes it expect a million groups where there are ~100,000, and plan a sort (or a hash table split
 * into batches on disk) where a hash table of a few MB holds them.
 */
const TIMELINE_READ_PLAN = [
  'SET LOCAL enable_seqscan = off',
  'SET LOCAL enable_bitmapscan = off',
  'SET LOCAL enable_sort = off',
  'SET LOCAL enable_incremental_sort = off',
  'SET LOCAL max_parallel_workers_per_gather = 0',
  'SET LOCAL jit = off',
  "SET LOCAL work_mem = '64MB'",
];

/**
 * Sets the plan of the reads of `eventsInTimelineOrder` for the caller's transaction. Sorting is off
 * because the newest ids rely on it: a sort for the grouping would lose the timeline order within a
 * group, where the hash aggregation keeps it.
 */
export async function planTimelineRead(client: PoolClient): Promise<void> {
  for (const setting of TIMELINE_READ_PLAN) await client.query(setting);
}

/** How many of a group's newest events it keeps. */
export const NEWEST_IDS = 3;

/** The newest ids of a group as `id,id,id`. */
export const NEWEST_IDS_SQL = `array_to_string((array_agg(e.id))[1:${NEWEST_IDS}], ',')`;

/**
 * The settled groups of buildings `$1` before horizon `$2`. A closing date is kept only when it is on
 * or after the first of January of the first year whose runs use this horizon: before that, every
 * such run sees the record closed.
 */
const SETTLED_GROUPS_SQL = `
  SELECT e.bbl, e.source, e.event_type, e.category, e.severity,
         e.status IN ('open', 'active') AS status_open,
         CASE WHEN e.closed_on >= ($2::date + interval '5 years')::date AND e.status NOT IN ('open', 'active') THEN e.closed_on END AS closes_on,
         e.scoring_excluded, e.occurred_on IS NULL AS undated,
         count(*)::int AS count, sum(${AMOUNT_SQL})::float8 AS amount,
         ${NEWEST_IDS_SQL} AS newest_event_ids, array_to_string((array_agg(e.occurred_on))[1:${NEWEST_IDS}], ',', '') AS newest_event_dates,
         max(e.occurred_on) AS newest_occurred_on
    FROM ${eventsInTimelineOrder(`(occurred_on < $2::date OR occurred_on IS NULL)`)}
   GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9`;

const GROUP_COLUMNS = `bbl, ${cellText(['source', 'event_type', 'category', 'severity', letter('status_open'), letter('scoring_excluded'), letter('undated')])} AS cell,
  to_char(closes_on, 'YYYY-MM-DD') AS closes_on, count, amount, newest_event_ids, newest_event_dates, to_char(newest_occurred_on, 'YYYY-MM-DD') AS newest_occurred_on`;

/** Advisory lock class ('bhss') of the writes of summaries: two runs never write the groups of one building at once. */
const STORE_LOCK_CLASS = 0x62687373;

/**
 * Reads the settled groups of `bbls` at `horizon`, inside the caller's REPEATABLE READ transaction
 * (the same snapshot as the rest of its histogram): the stored summaries that hold (all of them
 * counted again with `recount`), and those counted now, which are left in temporary tables for
 * `storeCountedSettled` to keep once the transaction has ended.
 */
export async function readSettled(client: PoolClient, bbls: string[], horizon: string): Promise<{ rows: SettledGroupSqlRow[]; counted: number }> {
  await planTimelineRead(client);
  const held = await client.query<{ bbl: string }>(
    `SELECT s.bbl FROM settled_histories s LEFT JOIN settled_history_epochs x ON x.bbl = s.bbl
      WHERE s.bbl = ANY($1::char(10)[]) AND s.horizon = $2::date
        AND s.global_epoch = (SELECT epoch FROM settled_history_epoch) AND s.bbl_epoch = COALESCE(x.epoch, 0)`,
    [bbls, horizon],
  );
  const heldSet = new Set(held.rows.map((r) => r.bbl));
  const missing = bbls.filter((bbl) => !heldSet.has(bbl));
  const stored =
    held.rows.length === 0
      ? []
      : (await client.query<SettledGroupSqlRow>({ name: 'settled_stored', text: `SELECT ${GROUP_COLUMNS} FROM settled_history_groups WHERE bbl = ANY($1::char(10)[])`, values: [[...heldSet]] })).rows;
  if (missing.length === 0) return { rows: stored, counted: 0 };
  await client.query(`DROP TABLE IF EXISTS pg_temp.settled_counted, pg_temp.settled_counted_heads`);
  // the epochs in the snapshot the events are read in: a merge that commits later raises them past these
  await client.query(
    `CREATE TEMP TABLE settled_counted_heads AS
     SELECT t.bbl, (SELECT epoch FROM settled_history_epoch) AS global_epoch, COALESCE(x.epoch, 0) AS bbl_epoch
       FROM unnest($1::char(10)[]) t(bbl) LEFT JOIN settled_history_epochs x ON x.bbl = t.bbl`,
    [missing],
  );
  await client.query(`CREATE TEMP TABLE settled_counted AS ${SETTLED_GROUPS_SQL}`, [missing, horizon]);
  const counted = await client.query<SettledGroupSqlRow>(`SELECT ${GROUP_COLUMNS} FROM settled_counted`);
  return { rows: stored.concat(counted.rows), counted: missing.length };
}

/**
 * The counted buildings' old groups, found by index probes. Joined to the temp table (no statistics),
 * the delete was planned as a merge join over the whole index: 3.2 s for 2.1M groups a quarter into
 * the whole city's first full run, growing with every chunk, each under the store lock (docs/benchmarks.json, notes).
 */
export const DELETE_COUNTED_SQL = `DELETE FROM settled_history_groups WHERE bbl = ANY (ARRAY(SELECT bbl FROM settled_counted_heads))`;

/** Keeps the summaries `readSettled` counted (after its transaction), replacing those stored before. */
export async function storeCountedSettled(client: PoolClient, horizon: string): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query(`SELECT pg_advisory_xact_lock($1)`, [STORE_LOCK_CLASS]);
    await client.query(`SET LOCAL jit = off`);
    await client.query(DELETE_COUNTED_SQL);
    await client.query(`INSERT INTO settled_history_groups SELECT * FROM settled_counted`);
    await client.query(
      `INSERT INTO settled_histories (bbl, horizon, global_epoch, bbl_epoch)
       SELECT bbl, $1::date, global_epoch, bbl_epoch FROM settled_counted_heads
       ON CONFLICT (bbl) DO UPDATE SET horizon = EXCLUDED.horizon, global_epoch = EXCLUDED.global_epoch, bbl_epoch = EXCLUDED.bbl_epoch`,
      [horizon],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.query(`DROP TABLE IF EXISTS pg_temp.settled_counted, pg_temp.settled_counted_heads`).catch(() => undefined);
  }
}

/** Newest first: the later date, then the larger id (decimal, without leading zeros). */
function newerFirst(a: [string, string], b: [string, string]): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? 1 : -1;
  if (a[1].length !== b[1].length) return b[1].length - a[1].length;
  return a[1] < b[1] ? 1 : a[1] > b[1] ? -1 : 0;
}

/** A group's newest events, newest first: [date or '', id]. */
export function newestEvents(group: SettledGroupSqlRow): [string, string][] {
  const dates = group.newest_event_dates.split(',');
  return group.newest_event_ids.split(',').map((id, i) => [dates[i] ?? '', id]);
}

/** The newest events of two groups of one cell. */
export function mergeNewest(a: [string, string][], b: [string, string][]): [string, string][] {
  return a.concat(b).sort(newerFirst).slice(0, NEWEST_IDS);
}

/**
 * The histogram row of a settled group as of `asOf`, its cell as the histogram's SQL writes it
 * (feature-queries.ts): in the oldest bucket (or the undated one), open as that SQL would find it on
 * that day (a record without a status is neither open nor closed).
 */
export function settledCell(group: SettledGroupSqlRow, asOf: string): Omit<HistogramSqlRow, 'newest_event_ids'> {
  // the last six characters are `|S|E|U`: status open, excluded and undated, one letter each
  const text = group.cell;
  const status = text[text.length - 5];
  const open = status === 'n' ? 'n' : status === 't' || (group.closes_on !== null && group.closes_on > asOf) ? 't' : 'f';
  const bucket: AgeBucket = text[text.length - 1] === 't' ? 'undated' : '5y+';
  return {
    bbl: group.bbl,
    cell: `${text.slice(0, text.length - 5)}${open}|${text[text.length - 3]}|${bucket}`,
    count: group.count,
    amount: group.amount,
    newest_occurred_on: group.newest_occurred_on,
  };
}
