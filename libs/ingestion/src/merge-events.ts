import type { PoolClient, QueryResult } from 'pg';
import { forgetSettledHistories, keepingSettledHistories } from '@bhis/db';
import { SEVERITIES } from '@bhis/domain';
import { neverLoaded } from '@bhis/runs';
import { refineMerged } from './merge-refinements';
import { statusChangeRows } from './status-changes';

/** Attributes that hold lists; rows of the same record merge them (HPD complaints: one row per problem). */
export const LIST_ATTRIBUTES = ['problems', 'unique_keys_311'] as const;

/** The sources whose records link a 311 request to an HPD complaint (step 3). */
const SOURCES_311_LINKS: readonly string[] = ['hpd_complaints', 'nyc311'];

/**
 * Sources whose stored events the merges of another source write (the HPD complaints mark the stored
 * 311 requests they duplicate): their merge does every step in its turn, for what it compares with
 * may change until then.
 */
const STORED_EVENTS_WRITTEN_BY_OTHERS: readonly string[] = ['nyc311'];

export interface EventMergeCounts {
  staged: number;
  outOfScopeRecords: number;
  duplicatesCollapsed: number;
  inserted: number;
  updated: number;
  unchanged: number;
  statusChanges: number;
  duplicates311: number;
  latestRecordDate: string | null;
}

export interface MergeOptions {
  /** The source was never loaded: nothing stored to compare with. */
  firstLoad?: boolean;
  /** No two staged rows share a record id (the staging saw them in strictly increasing order). */
  idsDistinct?: boolean;
  /** Staged rows share a record id, if at all, only for these ids (a file staged in chunks: stage-records.ts). */
  repeatedIdsOnly?: readonly string[];
  /**
   * Waits for the merge's turn among the merges of all sources (load-source.ts), called before the
   * first write of a table other merges write or read. What reads only the staged set and the stored
   * events of this source (steps 1 and 2, the comparison of step 5) is done before.
   */
  takeTurn?: () => Promise<void>;
  /**
   * The staging table of the lines skipped as unchanged (stage-records.ts): a record of which the file
   * has such a line and other lines too is collapsed with the stored version of that line.
   */
  unchanged?: string;
}

const SEVERITY_RANK = `array_position(ARRAY[${SEVERITIES.map((s) => `'${s}'`).join(',')}]::text[], severity::text)`;

/**
 * Merges a run's staged events into `events` (inside the caller's transaction):
 * 1. events on BBLs outside the building universe are counted and dropped;
 * 2. rows of the same record are collapsed (rows that follow each other in the file arrive collapsed
 *    already, adjacent-rows.ts; the most severe row leads; list attributes such as an
 *    HPD complaint's problems are concatenated; the earliest date and the latest closing date are kept);
 * 3. 311 requests that are also HPD complaints are kept as evidence but marked as duplicates;
 * 4. status changes against the stored records become events dated `observedOn`;
 * 5. the upsert writes new and changed rows only (compared column by column), and marks their buildings dirty.
 * A merge of few records against the stored events raises the settled-history epochs of the buildings
 * whose old events it wrote; a larger one, by the trigger of `events`, the epoch of all buildings
 * (libs/db/src/settled-history.ts).
 * A first load (`firstLoad`: the source was never loaded), or a load of which no record is stored yet, has
 * nothing to compare with and writes every record. Steps 1 and 2 and the comparison of step 5 read
 * only the staged set and the source's own stored events: they run before the merge's turn
 * (`takeTurn`), beside another source's merge, except for a source whose stored events another
 * source's merge writes. Staged ids known to be distinct (`idsDistinct`)
 * skip the search for repeated records of step 2.
 */
export async function mergeEvents(client: PoolClient, source: string, table: string, observedOn: string, options: MergeOptions = {}): Promise<EventMergeCounts> {
  const firstLoad = options.firstLoad ?? false;
  const takeTurn = options.takeTurn ?? (async () => undefined);
  const prepareBeforeTurn = !STORED_EVENTS_WRITTEN_BY_OTHERS.includes(source);
  if (!prepareBeforeTurn) await takeTurn();
  await client.query(`SET LOCAL work_mem = '128MB'`);
  const staged = await count(client, `SELECT COALESCE(sum(file_rows), 0) AS count FROM ${table}`);
  const outOfScopeRecords = await dropOutOfUniverse(client, table);
  const restaged = options.unchanged ? await restageUnchangedRows(client, table, options.unchanged) : 0;
  // staged ids known to be distinct (stage-records.ts) repeat no record key: no search for repeats
  const merged = options.idsDistinct && restaged === 0
    ? table
    : options.repeatedIdsOnly && restaged === 0
      ? await collapseKnownRepeats(client, table, options.repeatedIdsOnly)
      : await collapseRepeatedKeys(client, table);
  // a refresh, and the 311 links of any load, join the merged set to the stored events: the planner
  // needs its statistics (unanalyzed, a staging table of 75,000 complaints was planned as the inner
  // side of a nested loop, rescanned for every stored 311 request)
  const links311 = SOURCES_311_LINKS.includes(source);
  if (!firstLoad || merged !== table || links311) await client.query(`ANALYZE ${merged}`);
  await refineMerged(client, source, table, merged, firstLoad);
  const collapsed = await client.query<{ records: string; rows: string }>(
    merged === table
      ? `SELECT count(*) AS records, COALESCE(sum(file_rows), 0) AS rows FROM ${merged}`
      : `SELECT count(*) AS records, COALESCE(sum(n), 0) AS rows FROM ${merged}`,
  );
  const records = Number(collapsed.rows[0].records);
  const few = await probesPay(client, records);
  const probe = !firstLoad && few;
  // a later file of a loaded source often brings only records never stored (the 311 requests since
  // 2020 after those of 2010-2019): it is written as a first load is, for the comparison of millions
  // of rows would spill both sides of its hash join to disk
  const nothingToCompare = firstLoad || !(await anyRecordStored(client, merged));
  const compareBeforeTurn = prepareBeforeTurn && !nothingToCompare;
  if (compareBeforeTurn) await compare(client, merged, probe);
  await takeTurn();
  const { duplicates311, actionCounts } = await keepingSettledHistories(client, few, async () => {
    const duplicates311 = links311 ? await markDuplicates311(client, source, merged, probe, few) : 0;
    if (nothingToCompare) return { duplicates311, actionCounts: await writeFirstLoad(client, merged, few) };
    // the 311 requests are compared once marked (step 3)
    if (!compareBeforeTurn) await compare(client, merged, probe);
    return { duplicates311, actionCounts: await writeCompared(client, observedOn, few) };
  });
  const latest = await client.query<{ latest: string | null }>(
    `SELECT to_char(max(occurred_on), 'YYYY-MM-DD') AS latest FROM ${merged} WHERE occurred_on <= $1::date`,
    [observedOn],
  );
  return {
    staged,
    outOfScopeRecords,
    duplicatesCollapsed: Number(collapsed.rows[0].rows) - Number(collapsed.rows[0].records),
    inserted: actionCounts.inserted,
    updated: actionCounts.updated,
    unchanged: actionCounts.same,
    statusChanges: actionCounts.statusChanges ?? 0,
    duplicates311,
    latestRecordDate: latest.rows[0].latest,
  };
}

/**
 * 1. Events on BBLs outside the building universe are dropped; returns how many file records they were
 * (a staged row standing for several rows of one record has those rows to itself: adjacent-rows.ts).
 */
async function dropOutOfUniverse(client: PoolClient, table: string): Promise<number> {
  const outOfScope = await client.query<{ records: string }>(
    `WITH gone AS (
       DELETE FROM ${table} s WHERE NOT EXISTS (SELECT 1 FROM buildings b WHERE b.bbl = s.bbl) RETURNING line_no, file_rows)
     SELECT count(DISTINCT line_no) + COALESCE(sum(file_rows - 1), 0) AS records FROM gone`,
  );
  return Number(outOfScope.rows[0].records);
}

/**
 * 1b. A record with a line skipped as unchanged and other lines staged (a record that had one row and
 * has several now): the stored version of the skipped line is staged beside them, so the record is
 * collapsed from all its rows as a full parse would. Returns how many rows were staged so.
 */
async function restageUnchangedRows(client: PoolClient, table: string, unchanged: string): Promise<number> {
  const { rowCount } = await client.query(`
    INSERT INTO ${table} (line_no, bbl, source, source_record_id, event_type, category, severity, status, occurred_on, closed_on,
                          description, attributes, record, scoring_excluded, file_rows, lists_ordered, duplicate_of_hpd_complaint, line_hash)
    SELECT u.line_no, e.bbl, e.source, e.source_record_id, e.event_type, e.category, e.severity, e.status, e.occurred_on, e.closed_on,
           e.description, e.attributes, e.record, e.scoring_excluded, 1, false, e.duplicate_of_hpd_complaint, e.line_hash
      FROM (SELECT DISTINCT bbl, source, source_record_id, event_type FROM ${table}) s
      JOIN events e ON e.bbl = s.bbl AND e.source = s.source AND e.source_record_id = s.source_record_id AND e.event_type = s.event_type
      JOIN ${unchanged} u ON u.line_hash = e.line_hash`);
  return rowCount ?? 0;
}

/**
 * 2. One row per record key: most files have none repeated, so only the repeated keys are collapsed.
 * Returns the table holding the merged set: the staging table itself when no key repeats.
 */
async function collapseRepeatedKeys(client: PoolClient, table: string): Promise<string> {
  await client.query(`DROP TABLE IF EXISTS pg_temp.merged`);
  await client.query(`DROP TABLE IF EXISTS pg_temp.repeated`);
  await client.query(`
    CREATE TEMP TABLE repeated ON COMMIT DROP AS
    SELECT bbl, source, source_record_id, event_type FROM ${table} GROUP BY 1, 2, 3, 4 HAVING count(*) > 1`);
  const repeatedKeys = await count(client, `SELECT count(*) FROM repeated`);
  // without repeated keys the staging table already is the merged set: no copy of it
  if (repeatedKeys === 0) return table;
  await client.query(`ANALYZE ${table}`);
  await leadersOfRepeats(client, table);
  await client.query(`
    CREATE TEMP TABLE merged ON COMMIT DROP AS
    SELECT s.bbl, s.source, s.source_record_id, s.event_type, s.category, s.severity, s.status, s.occurred_on,
           s.closed_on, s.description, s.attributes, s.record, s.scoring_excluded, s.duplicate_of_hpd_complaint, s.file_rows::bigint AS n,
           s.lists_ordered, s.line_hash
      FROM ${table} s
     WHERE NOT EXISTS (SELECT 1 FROM repeated r WHERE r.bbl = s.bbl AND r.source = s.source
                         AND r.source_record_id = s.source_record_id AND r.event_type = s.event_type)
    UNION ALL
    SELECT k.bbl, k.source, k.source_record_id, k.event_type, s.category, s.severity, s.status,
           k.first_on, k.last_closed, s.description, s.attributes || COALESCE(lo.obj, '{}'::jsonb), s.record, s.scoring_excluded,
           s.duplicate_of_hpd_complaint, k.n, false, NULL::bigint
      FROM leaders k
      JOIN ${table} s ON s.ctid = k.lead
      LEFT JOIN list_objects lo ON lo.bbl = k.bbl AND lo.source = k.source AND lo.source_record_id = k.source_record_id
                               AND lo.event_type = k.event_type`);
  return 'merged';
}

/**
 * Per key of the temp table `repeated`: its leading row (by position, so the wide rows are never
 * sorted), the counts and dates (`leaders`), then its list attributes (`list_objects`).
 */
async function leadersOfRepeats(client: PoolClient, table: string): Promise<void> {
  await client.query(`ANALYZE repeated`);
  await client.query(`DROP TABLE IF EXISTS pg_temp.leaders`);
  await client.query(`
    CREATE TEMP TABLE leaders ON COMMIT DROP AS
    SELECT s.bbl, s.source, s.source_record_id, s.event_type, sum(s.file_rows) AS n, min(s.occurred_on) AS first_on,
           max(s.closed_on) AS last_closed, (array_agg(s.ctid ORDER BY ${SEVERITY_RANK.replace('severity', 's.severity')}, s.line_no))[1] AS lead
      FROM ${table} s JOIN repeated r USING (bbl, source, source_record_id, event_type)
     GROUP BY 1, 2, 3, 4`);
  await client.query(`DROP TABLE IF EXISTS pg_temp.list_objects`);
  await client.query(`
    CREATE TEMP TABLE list_objects ON COMMIT DROP AS
    SELECT bbl, source, source_record_id, event_type, jsonb_object_agg(name, items) AS obj FROM (
      SELECT s.bbl, s.source, s.source_record_id, s.event_type, l.name, jsonb_agg(DISTINCT e.value) AS items
        FROM ${table} s JOIN repeated r USING (bbl, source, source_record_id, event_type)
        CROSS JOIN unnest(ARRAY[${LIST_ATTRIBUTES.map((a) => `'${a}'`).join(',')}]::text[]) AS l(name)
        CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(s.attributes -> l.name) = 'array' THEN s.attributes -> l.name ELSE '[]'::jsonb END) e
       GROUP BY 1, 2, 3, 4, 5) lists
     GROUP BY 1, 2, 3, 4`);
  await client.query(`ANALYZE leaders`);
  await client.query(`ANALYZE list_objects`);
}

/**
 * 2, for a file whose record ids repeat only among `ids` (a file staged in chunks: the rows of a record
 * on both sides of a cut): the same collapse as `collapseRepeatedKeys`, done in the staging table
 * itself, since there are few such keys: the leading row takes the group's counts, dates and lists,
 * the others are deleted.
 */
async function collapseKnownRepeats(client: PoolClient, table: string, ids: readonly string[]): Promise<string> {
  if (ids.length === 0) return table;
  await client.query(`DROP TABLE IF EXISTS pg_temp.repeated`);
  await client.query(
    `CREATE TEMP TABLE repeated ON COMMIT DROP AS
     SELECT bbl, source, source_record_id, event_type FROM ${table} WHERE source_record_id = ANY($1::text[])
      GROUP BY 1, 2, 3, 4 HAVING count(*) > 1`,
    [ids],
  );
  await client.query(`ANALYZE repeated`);
  await leadersOfRepeats(client, table);
  // the others first: an updated row moves, and its old place is what the leaders name
  await client.query(`
    DELETE FROM ${table} s USING repeated r
     WHERE s.bbl = r.bbl AND s.source = r.source AND s.source_record_id = r.source_record_id AND s.event_type = r.event_type
       AND s.ctid NOT IN (SELECT lead FROM leaders)`);
  await client.query(`
    UPDATE ${table} s SET occurred_on = k.first_on, closed_on = k.last_closed, file_rows = k.n,
           attributes = s.attributes || COALESCE(lo.obj, '{}'::jsonb), lists_ordered = false, line_hash = NULL
      FROM leaders k
      LEFT JOIN list_objects lo ON lo.bbl = k.bbl AND lo.source = k.source AND lo.source_record_id = k.source_record_id
                               AND lo.event_type = k.event_type
     WHERE s.ctid = k.lead`);
  return table;
}

/**
 * A merged set at most this share of the stored events is joined to them by index probes (see
 * `withIndexProbes`); a larger one (a whole file loaded again) by the planner's choice, a hash join.
 */
const PROBE_SHARE = 0.02;

/** Whether the merged records are few enough, against the stored events, to be looked up one by one. */
async function probesPay(client: PoolClient, records: number): Promise<boolean> {
  const { rows } = await client.query<{ stored: number }>(
    `SELECT COALESCE(sum(GREATEST(c.reltuples, 0)), 0)::float8 AS stored
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'events'::regclass`,
  );
  return records <= PROBE_SHARE * rows[0].stored;
}

/** Plans turned off while probing: hash and merge joins, and reading a stored partition whole. */
const PROBE_SETTINGS = ['enable_hashjoin', 'enable_mergejoin', 'enable_seqscan'] as const;

/**
 * Runs `write` with the joins to `events` planned as index probes. The planner costs a probe of the
 * unique key as an index scan of every hash partition (which partition holds a row is known only
 * when the row is read), so for a refresh of a few hundred thousand records it chose a hash join that
 * read the whole heap: 65-82 s for each large source on the whole city (docs/adr/0011-event-storage-and-load-path.md), where the
 * probes of the merged set, in key order, touch only the pages of its records.
 */
export async function withIndexProbes<T>(client: PoolClient, probe: boolean, write: () => Promise<T>): Promise<T> {
  if (!probe) return write();
  // a partition small enough to be read whole into the loop is probed too (the staged set, which has
  // no index, is still scanned)
  for (const setting of PROBE_SETTINGS) await client.query(`SET LOCAL ${setting} = off`);
  // a failed write aborts the transaction, and the settings with it
  const written = await write();
  for (const setting of PROBE_SETTINGS) await client.query(`SET LOCAL ${setting} TO DEFAULT`);
  return written;
}

/**
 * 3. 311 requests that are also HPD complaints: the links are kept, the 311 copies marked (the complaint's
 * id in `duplicate_of_hpd_complaint`, which the API prints among the attributes); returns how many were marked.
 */
async function markDuplicates311(client: PoolClient, source: string, merged: string, probe: boolean, keep: boolean): Promise<number> {
  // with no link stored (a first load of the complaints), nothing can conflict: a plain INSERT, a third
  // cheaper than the upsert on the 10% city (docs/adr/0011-event-storage-and-load-path.md)
  const anyLinked = await client.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM complaint_311_links) AS any`);
  // a 311 key that several complaints list links to the one with the highest id, whatever the order
  // of the staged rows (a file staged on several threads stages them in another order)
  await client.query(`
    INSERT INTO complaint_311_links (unique_key, hpd_complaint_id, bbl)
    SELECT DISTINCT ON (k.key) k.key, m.source_record_id, m.bbl
      FROM ${merged} m CROSS JOIN LATERAL jsonb_array_elements_text(m.attributes -> 'unique_keys_311') AS k(key)
     WHERE m.event_type = 'hpd_complaint' AND jsonb_typeof(m.attributes -> 'unique_keys_311') = 'array'
     ORDER BY k.key, length(m.source_record_id) DESC, m.source_record_id DESC, m.bbl DESC
    ${anyLinked.rows[0].any ? `ON CONFLICT (unique_key) DO UPDATE SET hpd_complaint_id = EXCLUDED.hpd_complaint_id, bbl = EXCLUDED.bbl
      WHERE (complaint_311_links.hpd_complaint_id, complaint_311_links.bbl) IS DISTINCT FROM (EXCLUDED.hpd_complaint_id, EXCLUDED.bbl)` : ''}`);
  const dup311 = await client.query(`
    UPDATE ${merged} m SET scoring_excluded = true, duplicate_of_hpd_complaint = l.hpd_complaint_id
      FROM complaint_311_links l WHERE m.source = 'nyc311' AND l.unique_key = m.source_record_id`);
  // stored 311 requests the merged complaints name (by the link each name now has): none before any 311 load
  const complaintsAfter311 = source === 'hpd_complaints' && !(await neverLoaded(client, 'nyc311'));
  const dup311Stored = complaintsAfter311 ? await withIndexProbes(client, probe, () => client.query<{ bbl: string; occurred_on: string | null }>(markStored311Sql(merged))) : null;
  if (dup311Stored && keep && dup311Stored.rows.length > 0) {
    await forgetSettledHistories(client, `SELECT * FROM unnest($1::char(10)[], $2::date[])`, [dup311Stored.rows.map((r) => r.bbl), dup311Stored.rows.map((r) => r.occurred_on)]);
  }
  return (dup311.rowCount ?? 0) + (dup311Stored?.rowCount ?? 0);
}

/**
 * Marks the stored 311 requests that the merged HPD complaints list, through the link each listed
 * request has (just written); a link left from an earlier version of a complaint is not followed.
 */
export function markStored311Sql(merged: string): string {
  return `
    UPDATE events e SET scoring_excluded = true, duplicate_of_hpd_complaint = l.hpd_complaint_id
      FROM ${merged} m
      CROSS JOIN LATERAL jsonb_array_elements_text(m.attributes -> 'unique_keys_311') AS k(key)
      JOIN complaint_311_links l ON l.unique_key = k.key AND l.hpd_complaint_id = m.source_record_id
     WHERE m.event_type = 'hpd_complaint' AND jsonb_typeof(m.attributes -> 'unique_keys_311') = 'array'
       AND e.bbl = l.bbl AND e.source = 'nyc311' AND e.source_record_id = l.unique_key AND NOT e.scoring_excluded
    RETURNING e.bbl, to_char(e.occurred_on, 'YYYY-MM-DD') AS occurred_on`;
}

/**
 * Whether any merged record is stored already. Planned as a nested loop of index probes that stops at
 * the first stored record (~2.5 us per record that is not stored), never as a hash join.
 */
export async function anyRecordStored(client: PoolClient, merged: string): Promise<boolean> {
  const { rows } = await client.query<{ stored: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM ${merged} m JOIN events e ON e.bbl = m.bbl AND e.source = m.source
                      AND e.source_record_id = m.source_record_id AND e.event_type = m.event_type) AS stored`,
  );
  return rows[0].stored;
}

/** The columns a merge writes besides the record key (and compares, on a refresh). */
const WRITTEN = ['category', 'severity', 'status', 'occurred_on', 'closed_on', 'description', 'attributes', 'record', 'scoring_excluded', 'duplicate_of_hpd_complaint'];
const KEY = ['bbl', 'source', 'source_record_id', 'event_type'];
/** Written but not compared: the hash of the record's line (known-lines.ts), which says nothing of its content. */
const STORED = [...WRITTEN, 'line_hash'];

/** Writes the rows `from` selects into `events`, a stored record replaced by the row of the same key. */
function upsertFrom(from: string): string {
  return `${insertFrom(from)}
    ON CONFLICT (${KEY.join(', ')}) DO UPDATE SET ${STORED.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}`;
}

function insertFrom(from: string): string {
  return `INSERT INTO events (${[...KEY, ...STORED].join(', ')}) SELECT ${[...KEY, ...STORED].join(', ')} FROM ${from}`;
}

const UNIQUE_VIOLATION = '23505';

/**
 * 5, for a source never loaded before, or records none of which is stored: every record is new, no
 * status changed, nothing to compare with. Written by a plain INSERT, a third cheaper than an upsert
 * (docs/adr/0011-event-storage-and-load-path.md); the merge lock keeps other merges out meanwhile. Records already there, which
 * only a hand-made table can have, make it fail: then the upsert overwrites them, counted as written.
 */
async function writeFirstLoad(client: PoolClient, merged: string, keep: boolean): Promise<ActionCounts> {
  await client.query('SAVEPOINT first_load');
  let written: QueryResult;
  try {
    written = await client.query(insertFrom(merged));
    await client.query('RELEASE SAVEPOINT first_load');
  } catch (error) {
    if ((error as { code?: unknown }).code !== UNIQUE_VIOLATION) throw error;
    await client.query('ROLLBACK TO SAVEPOINT first_load');
    written = await client.query(upsertFrom(merged));
    // the dates the overwritten records had are gone: no summary holds
    if (keep) await client.query(`UPDATE settled_history_epoch SET epoch = epoch + 1`);
  }
  if (keep) await forgetSettledHistories(client, `SELECT bbl, occurred_on FROM ${merged}`);
  await client.query(`INSERT INTO dirty_buildings (bbl) SELECT DISTINCT bbl FROM ${merged} ON CONFLICT (bbl) DO UPDATE SET marked_at = now()`);
  return { inserted: written.rowCount ?? 0, updated: 0, same: 0 };
}

interface ActionCounts {
  inserted: number;
  updated: number;
  same: number;
  statusChanges?: number;
}

/**
 * Each merged record with the stored one. For index probes in key order: the probes walk the unique
 * index forward, and the upsert that reads the comparison writes in that order.
 */
export function comparedSql(merged: string, probe: boolean): string {
  return `
    SELECT ${[...KEY, ...STORED].map((c) => `m.${c}`).join(', ')},
           e.status AS stored_status, e.occurred_on AS stored_occurred_on, e.bbl IS NOT NULL AS stored,
           e.line_hash IS DISTINCT FROM m.line_hash AS rehashed,
           CASE WHEN e.bbl IS NULL THEN 'insert'
                WHEN (${WRITTEN.map((c) => `e.${c}`).join(', ')}) IS DISTINCT FROM (${WRITTEN.map((c) => `m.${c}`).join(', ')})
                THEN 'update' ELSE 'same' END AS action
      FROM ${probe ? `(SELECT * FROM ${merged} ORDER BY ${KEY.join(', ')})` : merged} m
      LEFT JOIN events e ON e.bbl = m.bbl AND e.source = m.source AND e.source_record_id = m.source_record_id
                        AND e.event_type = m.event_type`;
}

/**
 * A refresh, first: each merged record compared with the stored one (new, changed or the same, column
 * by column), in the temp table `compared`; it reads only the stored events of the merged source.
 */
async function compare(client: PoolClient, merged: string, probe: boolean): Promise<void> {
  await client.query(`DROP TABLE IF EXISTS pg_temp.compared`);
  await withIndexProbes(client, probe, () => client.query(`CREATE TEMP TABLE compared ON COMMIT DROP AS ${comparedSql(merged, probe)}`));
}

/** A refresh, then: status changes turned into events, the new and changed records written (steps 4 and 5). */
async function writeCompared(client: PoolClient, observedOn: string, keep: boolean): Promise<ActionCounts> {
  // 4. status changes of stored records become events dated the day they were first seen
  const changeRows = statusChangeRows();
  const changes = await client.query<{ bbl: string }>(
    `WITH rules(event_type, new_status, change_type) AS (
       SELECT * FROM unnest($1::event_type[], $2::event_status[], $3::event_type[]))
     INSERT INTO events (bbl, source, source_record_id, event_type, category, severity, status, occurred_on,
                         closed_on, description, attributes, scoring_excluded)
     SELECT c.bbl, c.source, c.source_record_id || '@' || $4::text, r.change_type, c.category, 'info', c.status, $4::date,
            NULL, left(c.event_type || ' ' || c.source_record_id || ': ' || coalesce(c.stored_status::text, 'unknown') || ' -> '
                       || c.status || ' (first seen ' || $4::text || ')', 500),
            jsonb_build_object('record_id', c.source_record_id, 'record_event_type', c.event_type,
                               'previous_status', c.stored_status, 'new_status', c.status, 'first_seen_on', $4::text),
            c.scoring_excluded
       FROM compared c
       JOIN rules r ON r.event_type = c.event_type AND r.new_status = c.status
      WHERE c.stored AND c.stored_status IS DISTINCT FROM c.status
     ON CONFLICT (bbl, source, source_record_id, event_type) DO NOTHING
     RETURNING bbl`,
    [changeRows.map((r) => r[0]), changeRows.map((r) => r[1]), changeRows.map((r) => r[2]), observedOn],
  );

  // 5. write new and changed rows; their buildings need rescoring. A record the same but for its line's
  // hash (stored before hashes were, or now from another line) takes the hash, and stays unchanged.
  await client.query(upsertFrom(`compared WHERE action <> 'same' OR rehashed`));
  if (keep) {
    await forgetSettledHistories(
      client,
      `SELECT bbl, occurred_on FROM compared WHERE action <> 'same'
       UNION ALL SELECT bbl, stored_occurred_on FROM compared WHERE action = 'update'
       UNION ALL SELECT unnest($1::char(10)[]), $2::date`,
      [changes.rows.map((r) => r.bbl), observedOn],
    );
  }
  await client.query(`
    INSERT INTO dirty_buildings (bbl)
    SELECT bbl FROM compared WHERE action <> 'same' UNION SELECT unnest($1::char(10)[])
    ON CONFLICT (bbl) DO UPDATE SET marked_at = now()`, [changes.rows.map((r) => r.bbl)]);
  const actions = await client.query<{ inserted: string; updated: string; same: string }>(
    `SELECT count(*) FILTER (WHERE action = 'insert') AS inserted, count(*) FILTER (WHERE action = 'update') AS updated,
            count(*) FILTER (WHERE action = 'same') AS same FROM compared`,
  );
  return {
    inserted: Number(actions.rows[0].inserted),
    updated: Number(actions.rows[0].updated),
    same: Number(actions.rows[0].same),
    statusChanges: changes.rowCount ?? 0,
  };
}

async function count(client: PoolClient, sql: string): Promise<number> {
  const { rows } = await client.query<{ count: string }>(sql);
  return Number(rows[0].count);
}
