import { Transform, type Readable } from 'node:stream';
import type { Pool, PoolClient } from 'pg';
import { normalizeAddress } from '@bhis/domain';
import { parseSodaRows, parseSource, type SourceDefinition, type SourceFacts, type SourceParse } from '@bhis/sources';
import { FactsMergeCounts, mergeContacts, mergeHpdBuildings, mergePluto, mergeRegistrations } from './merge-facts';
import { mergeEvents } from './merge-events';
import { closeVanished } from './merge-vanished';
import { loadResolver } from './resolver';
import { AdjacentRows, stagedAlone, type StagedEvent } from './adjacent-rows';
import { LATEST_FILING_WINS } from './merge-refinements';
import { type CopyWriter, inTransaction, recordCopyText, splitAttributes } from '@bhis/db';
import { dropStaging, openStaging, StagingKind } from './staging';
import { uncompressed } from './uncompressed';
import { emptyCounts, IngestCounts, LoadProgress, neverLoaded, recordRunSucceeded, recordSourceLoaded } from '@bhis/runs';

/** `part` names the part of a multi-part source (by default: the header decides, or the first on Open Data). */
export type LoadInput =
  | { kind: 'csv'; stream: Readable; totalBytes: number | null; part?: string; fieldNames?: ReadonlyMap<string, string> | null }
  | { kind: 'soda'; rows: AsyncIterable<Record<string, unknown>>; part?: string };

export interface LoadOptions {
  runId: string;
  /** The day the data was observed (status changes are dated with it). */
  observedOn: string;
  /** Fail a run with fewer records than the source's minimum (a truncated download). */
  enforceMinimumRows?: boolean;
  /** The input is the whole data set: close the source's records it no longer carries (merge-vanished.ts). */
  closeVanished?: boolean;
  /** This load is the whole run: its success is recorded in the load's transaction. */
  completesRun?: boolean;
  onProgress?: (progress: LoadProgress) => void;
}

export class SuspiciousDownloadError extends Error {}

/** Advisory lock key of the merge transaction ('bhis' in ASCII). */
const MERGE_LOCK = 0x62686973;

const FACT_TABLE: Record<SourceFacts['kind'], StagingKind> = {
  pluto_building: 'pluto',
  hpd_building: 'hpd_buildings',
  registration: 'registrations',
  registration_contact: 'contacts',
};

function factRow(line: number, fact: SourceFacts): unknown[] {
  switch (fact.kind) {
    case 'pluto_building':
      return [line, fact.bbl, fact.borough, fact.block, fact.lot, fact.house_number, fact.street_name, fact.address,
        normalizeAddress(fact.address), fact.zipcode, fact.residential_units, fact.total_units, fact.year_built,
        fact.building_class, fact.owner_name, fact.latitude, fact.longitude, fact.num_buildings, fact.num_floors];
    case 'hpd_building':
      return [line, fact.bbl, fact.bin, fact.hpd_building_id, fact.legal_units, fact.stories, fact.lifecycle, fact.record_status,
        fact.registration_id, fact.house_number, fact.street_name,
        normalizeAddress(`${fact.house_number ?? ''} ${fact.street_name ?? ''}`), fact.zipcode, fact.management_program];
    case 'registration':
      return [line, fact.registration_id, fact.bbl, fact.bin, fact.hpd_building_id, fact.last_registration_date, fact.registration_end_date];
    case 'registration_contact':
      return [line, fact.contact_id, fact.registration_id, fact.contact_type, fact.name, fact.business_address];
  }
}

function eventRow({ line, event: e, rows, listsOrdered }: StagedEvent): unknown[] {
  // the description is kept in the compact record (docs/adr/0011-event-storage-and-load-path.md)
  const { sql, record } = splitAttributes(e.source, e.attributes, e.description);
  return [line, e.bbl, e.source, e.source_record_id, e.event_type, e.category, e.severity, e.status, e.occurred_on,
    e.closed_on, null, sql, recordCopyText(record), e.scoring_excluded, rows, listsOrdered];
}

/** A parse of the input, and how many bytes of it have been read so far. */
interface Reading {
  parse: SourceParse;
  bytes: () => number;
}

/** The staging table each kind of row went to (only the kinds the file had). */
type StagedTables = ReadonlyMap<StagingKind, string>;

/**
 * Loads one file (or a page stream of SODA rows) of a source: parse and normalize, COPY into staging
 * tables, then merge set-based in one transaction. Until that transaction commits the previous data
 * stays as it was; a run that dies half-way leaves only staging tables, which a retry replaces.
 */
export async function loadSource(pool: Pool, source: SourceDefinition, input: LoadInput, options: LoadOptions): Promise<IngestCounts> {
  const reading = openReading(source, input, await loadResolver(pool, source));
  const totalBytes = input.kind === 'csv' ? input.totalBytes : null;
  const staged = await stageRecords(pool, source, reading, options, totalBytes);
  const parsed = reading.parse.counters;
  if (options.enforceMinimumRows && parsed.read < source.minimumRows) {
    await dropStaging(pool, options.runId);
    throw new SuspiciousDownloadError(
      `${source.key}: only ${parsed.read} records, fewer than the ${source.minimumRows} expected; the previous data is kept`,
    );
  }
  options.onProgress?.({ phase: 'merging', rows: parsed.read, bytes: reading.bytes(), total_bytes: totalBytes });
  try {
    return await inTransaction(pool, (client) => mergeStaged(client, source, staged, reading, options));
  } finally {
    // a failed merge leaves its staging tables behind: they go here (a successful one dropped them in its transaction)
    await dropStaging(pool, options.runId).catch(() => undefined);
  }
}

/** Step 1: the input as a stream of parsed records (CSV, compressed or not, or SODA rows). */
function openReading(source: SourceDefinition, input: LoadInput, resolver: Awaited<ReturnType<typeof loadResolver>>): Reading {
  if (input.kind === 'soda') return { parse: parseSodaRows(source, input.rows, { resolver, part: input.part }), bytes: () => 0 };
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  input.stream.on('error', (error) => counter.destroy(error));
  const parse = parseSource(source, uncompressed(input.stream.pipe(counter)), { resolver, part: input.part, fieldNames: input.fieldNames ?? undefined });
  return { parse, bytes: () => bytes };
}

/** Step 2: every record into its staging table (events, facts by kind, quarantined rows), by COPY. */
async function stageRecords(pool: Pool, source: SourceDefinition, reading: Reading, options: LoadOptions, totalBytes: number | null): Promise<StagedTables> {
  const writers = new Map<StagingKind, CopyWriter>();
  const writer = async (kind: StagingKind) => {
    let w = writers.get(kind);
    if (!w) {
      w = await openStaging(pool, kind, options.runId);
      writers.set(kind, w);
    }
    return w;
  };
  const stageEvent = async (staged: StagedEvent | null) => {
    if (staged) await (await writer('events')).write(eventRow(staged));
  };
  const adjacent = new AdjacentRows(!LATEST_FILING_WINS.includes(source.key));
  const { parse } = reading;
  let lastReport = 0;
  try {
    for await (const record of parse) {
      const { outcome, lineNumber } = record;
      if (outcome.kind === 'ok') {
        if (outcome.events.length === 1) await stageEvent(adjacent.push(lineNumber, outcome.events[0]));
        else {
          await stageEvent(adjacent.flush());
          for (const event of outcome.events) await stageEvent(stagedAlone(lineNumber, event));
        }
        for (const fact of outcome.facts) await (await writer(FACT_TABLE[fact.kind])).write(factRow(lineNumber, fact));
      } else if (outcome.kind === 'quarantined') {
        const reason = outcome.detail ? `${outcome.reason}: ${outcome.detail}` : outcome.reason;
        await (await writer('rejected')).write([lineNumber, reason.slice(0, 500), record.raw]);
      }
      if (options.onProgress && Date.now() - lastReport > 500) {
        lastReport = Date.now();
        options.onProgress({ phase: 'parsing', rows: parse.counters.read, bytes: reading.bytes(), total_bytes: totalBytes });
      }
    }
    await stageEvent(adjacent.flush());
    for (const w of writers.values()) await w.close();
  } catch (error) {
    for (const w of writers.values()) w.abort(error as Error);
    await dropStaging(pool, options.runId).catch(() => undefined);
    throw error;
  }
  return new Map([...writers].map(([kind, w]) => [kind, w.table]));
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
async function mergeStaged(client: PoolClient, source: SourceDefinition, staged: StagedTables, reading: Reading, options: LoadOptions): Promise<IngestCounts> {
  const counts = emptyCounts();
  // merges take turns: two loads read their files at once, but one merge never misses the other's
  // rows (HPD complaints and the 311 requests they duplicate meet in complaint_311_links)
  await client.query(`SELECT pg_advisory_xact_lock(${MERGE_LOCK})`);
  let factsOutOfScope = 0;
  for (const [kind, merge] of FACT_MERGES) {
    const table = staged.get(kind);
    if (!table) continue;
    const merged = await merge(client, table);
    factsOutOfScope = Math.max(factsOutOfScope, merged.outOfScopeRecords);
    counts.facts.inserted += merged.inserted;
    counts.facts.updated += merged.updated;
  }
  let eventsOutOfScope = 0;
  const events = staged.get('events');
  if (events) {
    const merged = await mergeEvents(client, source.key, events, options.observedOn, await neverLoaded(client, source.key));
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
  if (options.closeVanished) {
    counts.vanished = await closeVanished(client, source, {
      events,
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
  accountParse(counts, reading, Math.max(factsOutOfScope, eventsOutOfScope));
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
function accountParse(counts: IngestCounts, reading: Reading, notInUniverse: number): void {
  const parsed = reading.parse.counters;
  counts.read = parsed.read;
  counts.quarantined = parsed.quarantined;
  counts.quarantine_reasons = parsed.quarantinedByReason;
  counts.cast_failures = parsed.castFailures;
  counts.unmapped_values = parsed.unmappedWords;
  counts.out_of_scope = parsed.notRelevant + notInUniverse;
  counts.out_of_scope_reasons = { ...parsed.notRelevantByReason, ...(notInUniverse ? { not_in_universe: notInUniverse } : {}) };
  counts.loaded = parsed.ok - notInUniverse;
  counts.bytes = reading.bytes();
  counts.part = parsed.part;
  counts.layout = parsed.variant;
}
