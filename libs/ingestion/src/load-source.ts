import type { Pool, PoolClient } from 'pg';
import type { KnownLines, SourceDefinition } from '@bhis/sources';
import { inTransaction } from '@bhis/db';
import { emptyCounts, IngestCounts, neverLoaded, recordRunSucceeded, recordSourceLoaded } from '@bhis/runs';
import { FactsMergeCounts, mergeContacts, mergeHpdBuildings, mergePluto, mergeRegistrations } from './merge-facts';
import { mergeEvents } from './merge-events';
import { closeVanished } from './merge-vanished';
import { loadResolver } from './resolver';
import { openReading, stageRecords } from './stage-records';
import type { FileStagingOptions, LoadInput, ParseSummary, Staged, StagedFile } from './staged-file';
import { dropStaging, ensureStaging, type StagingKind } from './staging';
import { stageInThread } from './staging-thread';
import { LATEST_FILING_WINS } from './merge-refinements';
import { waitForSourceLoad } from './run-lock';
import { loadKnownLines, writeUnchanged } from './known-lines';

export interface LoadOptions extends FileStagingOptions {
  /** The day the data was observed (status changes are dated with it). */
  observedOn: string;
  /** Fail a run with fewer records than the source's minimum (a truncated download). */
  enforceMinimumRows?: boolean;
  /** The input is the whole data set: close the source's records it no longer carries (merge-vanished.ts). */
  closeVanished?: boolean;
  /** This load is the whole run: its success is recorded in the load's transaction. */
  completesRun?: boolean;
  /** Called once the input is staged, before the merge transaction: a throw stops the load with the data as it was. */
  beforeMerge?: () => Promise<void>;
}

export class SuspiciousDownloadError extends Error {}

/**
 * A source whose merge waits for a load of another source under way. The 311 requests merge after
 * the HPD complaints: the complaints' links (complaint_311_links) then mark the 311 duplicates as they
 * are written, instead of the complaints merge rewriting every stored 311 row it marks, which leaves
 * their old versions behind (ADR 0011). Only the merge waits: both files are read and staged at once.
 */
const MERGES_AFTER: Readonly<Record<string, string>> = { nyc311: 'hpd_complaints' };

/** Advisory lock key of the merge transaction ('bhis' in ASCII). */
const MERGE_LOCK = 0x62686973;
/** With the source's key: the merges of one source (a two-key advisory lock, apart from the one-key MERGE_LOCK). */
const SOURCE_MERGE_LOCK_CLASS = 0x62686d73;

/**
 * Loads one file (or a page stream of SODA rows) of a source: parse and normalize, COPY into staging
 * tables, then merge set-based in one transaction. Until that transaction commits the previous data
 * stays as it was; a run that dies half-way leaves only staging tables, which a retry replaces.
 */
export async function loadSource(pool: Pool, source: SourceDefinition, input: LoadInput, options: LoadOptions): Promise<IngestCounts> {
  const totalBytes = input.kind === 'csv' ? input.totalBytes : null;
  const { staged, parsed } = await stage(pool, source, input, options, totalBytes);
  const counters = parsed.counters;
  if (options.enforceMinimumRows && counters.read < source.minimumRows) {
    await dropStaging(pool, options.runId);
    throw new SuspiciousDownloadError(
      `${source.key}: only ${counters.read} records, fewer than the ${source.minimumRows} expected; the previous data is kept`,
    );
  }
  const mergeAfter = MERGES_AFTER[source.key];
  if (mergeAfter) await waitForSourceLoad(pool, mergeAfter);
  try {
    await options.beforeMerge?.();
    options.onProgress?.({ phase: 'merging', rows: counters.read, bytes: parsed.bytes, total_bytes: totalBytes });
    return await inTransaction(pool, (client) => mergeStaged(client, source, staged, parsed, options));
  } finally {
    // a failed merge leaves its staging tables behind: they go here (a successful one dropped them in its transaction)
    await dropStaging(pool, options.runId).catch(() => undefined);
  }
}

/** Files of this process being staged on two threads: one at a time (docs/adr/0011-event-storage-and-load-path.md). */
let splitStagings = 0;

/**
 * Steps 1 and 2 (stage-records.ts): a CSV file is parsed in a staging thread of its own unless the
 * options say otherwise (staging-thread.ts: two loads then parse on two cores), SODA pages in this
 * thread. A large file staged while no other is split gets two threads (its repeated records are
 * collapsed by the merge only where a cut falls: not for sources whose latest filing wins, whose
 * repeats follow other rules).
 */
async function stage(pool: Pool, source: SourceDefinition, input: LoadInput, options: LoadOptions, totalBytes: number | null): Promise<StagedFile> {
  const known = input.kind === 'csv' ? loadKnownLines(pool, source) : Promise.resolve(null);
  // a failure is taken where it is awaited; until then it must not count as unhandled
  known.catch(() => undefined);
  const result = await stageFile(pool, source, input, options, totalBytes, known);
  const lines = await known;
  if (!lines || result.parsed.counters.unchangedLines === 0) return result;
  // the lines met unchanged, from the buffers the staging marked: seen by the merge and the close of what vanished
  try {
    const table = await ensureStaging(pool, 'unchanged', options.runId);
    await writeUnchanged(pool, table, lines);
    return { ...result, staged: { ...result.staged, tables: new Map([...result.staged.tables, ['unchanged', table]]) } };
  } catch (error) {
    await dropStaging(pool, options.runId).catch(() => undefined);
    throw error;
  }
}

async function stageFile(
  pool: Pool,
  source: SourceDefinition,
  input: LoadInput,
  options: LoadOptions,
  totalBytes: number | null,
  known: Promise<KnownLines | null>,
): Promise<StagedFile> {
  if (input.kind === 'csv' && options.stagingThreads !== false) {
    const { split } = options;
    const large = split !== undefined && totalBytes !== null && totalBytes >= split.minBytes;
    if (!large || splitStagings > 0 || LATEST_FILING_WINS.includes(source.key)) return stageInThread(pool, source, input, options, known);
    splitStagings += 1;
    try {
      return await stageInThread(pool, source, input, options, known, { threads: 2, chunkBytes: split.chunkBytes });
    } finally {
      splitStagings -= 1;
    }
  }
  const reading = openReading(source, input, await loadResolver(pool, source), await known);
  const staged = await stageRecords(pool, source, reading, options, totalBytes);
  return { staged, parsed: { counters: reading.parse.counters, bytes: reading.bytes() } };
}

const FACT_MERGES: readonly [StagingKind, (client: PoolClient, table: string) => Promise<FactsMergeCounts>][] = [
  ['pluto', mergePluto],
  ['hpd_buildings', mergeHpdBuildings],
  ['registrations', mergeRegistrations],
  ['contacts', mergeContacts],
];

/**
 * Step 3, in the load's transaction: merge the staged rows, close what vanished, keep the quarantined
 * rows, and account for the run (the source's row, and the run's success when it is the whole run).
 */
async function mergeStaged(client: PoolClient, source: SourceDefinition, { tables: staged, eventIdsDistinct, repeatedIdsOnly }: Staged, parsed: ParseSummary, options: LoadOptions): Promise<IngestCounts> {
  const counts = emptyCounts();
  // the merges of one source take turns from their start: each compares with what the one before committed
  await client.query(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, [SOURCE_MERGE_LOCK_CLASS, source.key]);
  // the merges of all sources take turns to write: two loads read their files at once, but one merge
  // never misses the other's rows (HPD complaints and the 311 requests they duplicate meet in
  // complaint_311_links); what reads only the source's own rows is done before (mergeEvents)
  let turn: Promise<unknown> | null = null;
  const takeTurn = async () => {
    turn ??= client.query(`SELECT pg_advisory_xact_lock(${MERGE_LOCK})`);
    await turn;
  };
  let factsOutOfScope = 0;
  for (const [kind, merge] of FACT_MERGES) {
    const table = staged.get(kind);
    if (!table) continue;
    await takeTurn();
    const merged = await merge(client, table);
    factsOutOfScope = Math.max(factsOutOfScope, merged.outOfScopeRecords);
    counts.facts.inserted += merged.inserted;
    counts.facts.updated += merged.updated;
  }
  let eventsOutOfScope = 0;
  const events = staged.get('events');
  if (events) {
    const merged = await mergeEvents(client, source.key, events, options.observedOn, {
      firstLoad: await neverLoaded(client, source.key),
      idsDistinct: eventIdsDistinct,
      repeatedIdsOnly,
      takeTurn,
      unchanged: staged.get('unchanged'),
    });
    eventsOutOfScope = merged.outOfScopeRecords;
    counts.events = {
      staged: merged.staged,
      inserted: merged.inserted,
      updated: merged.updated,
      unchanged: merged.unchanged,
      status_changes: merged.statusChanges,
      collapsed_duplicates: merged.duplicatesCollapsed,
      duplicates_311: merged.duplicates311,
    };
    counts.latest_record_date = merged.latestRecordDate;
  }
  await takeTurn();
  if (options.closeVanished) {
    counts.vanished = await closeVanished(client, source, {
      events,
      unchanged: staged.get('unchanged'),
      pluto: staged.get('pluto'),
      hpdBuildings: staged.get('hpd_buildings'),
      registrations: staged.get('registrations'),
      contacts: staged.get('contacts'),
    }, options.observedOn);
  }
  const rejected = staged.get('rejected');
  if (rejected) {
    await client.query(
      `INSERT INTO rejected_rows (run_id, source, line_number, reason, raw) SELECT $1, $2, line_no, reason, raw FROM ${rejected}`,
      [options.runId, source.key],
    );
  }
  // a record's facts and events share its BBL, so they are in or out of scope together
  accountParse(counts, parsed, Math.max(factsOutOfScope, eventsOutOfScope));
  await recordSourceLoaded(client, source.key, {
    runId: options.runId,
    latestRecordDate: counts.latest_record_date,
    recordsAdded: counts.events.inserted + counts.facts.inserted,
  });
  if (options.completesRun) await recordRunSucceeded(client, options.runId, counts);
  // gone with the commit: whoever sees the run succeeded sees no staging table of it
  await dropStaging(client, options.runId);
  return counts;
}

/** The parse's counters in the run's counts; `notInUniverse` records had no building of the city. */
function accountParse(counts: IngestCounts, summary: ParseSummary, notInUniverse: number): void {
  const parsed = summary.counters;
  counts.read = parsed.read;
  counts.quarantined = parsed.quarantined;
  counts.quarantine_reasons = parsed.quarantinedByReason;
  counts.cast_failures = parsed.castFailures;
  counts.unmapped_values = parsed.unmappedWords;
  counts.unknown_fields = parsed.unknownFields;
  counts.followed_columns = parsed.followedColumns;
  counts.out_of_scope = parsed.notRelevant + notInUniverse;
  counts.out_of_scope_reasons = { ...parsed.notRelevantByReason, ...(notInUniverse ? { not_in_universe: notInUniverse } : {}) };
  counts.loaded = parsed.ok + parsed.unchangedLines - notInUniverse;
  counts.unchanged_lines = parsed.unchangedLines;
  counts.bytes = summary.bytes;
  counts.part = parsed.part;
  counts.layout = parsed.variant;
}
