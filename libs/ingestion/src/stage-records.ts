import { Transform } from 'node:stream';
import type { Pool } from 'pg';
import { normalizeAddress } from '@bhis/domain';
import { type BblResolver, type KnownLines, parseSodaRows, parseSource, type SourceDefinition, type SourceFacts, type SourceParse } from '@bhis/sources';
import { type CopyWriter, recordCopyText, splitAttributes } from '@bhis/db';
import type { LoadProgress } from '@bhis/runs';
import { AdjacentRows, stagedAlone, type StagedEvent } from './adjacent-rows';
import type { IdSegment, LoadInput, Staged } from './staged-file';
import { LATEST_FILING_WINS } from './merge-refinements';
import { dropStaging, openStaging, type StagingKind } from './staging';
import { uncompressed } from './uncompressed';

/*
 * A file's records on their way into the run's staging tables: parse, map to typed records, quarantine
 * or keep, COPY. load-source.ts runs it in the loading thread or hands it to a staging thread
 * (staging-thread.ts); the merge follows in load-source.ts.
 */

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

function eventRow({ line, event: e, rows, listsOrdered }: StagedEvent, lineHash: bigint | null): unknown[] {
  // the description is kept in the compact record (docs/adr/0011-event-storage-and-load-path.md)
  const { sql, record } = splitAttributes(e.source, e.attributes, e.description);
  return [line, e.bbl, e.source, e.source_record_id, e.event_type, e.category, e.severity, e.status, e.occurred_on,
    e.closed_on, null, sql, recordCopyText(record), e.scoring_excluded, rows, listsOrdered, null, lineHash === null ? null : String(lineHash)];
}

/** A parse of the input, and how many bytes of it have been read so far. */
export interface Reading {
  parse: SourceParse;
  bytes: () => number;
}

/** Record ids in the order IdOrder expects them: shorter ids first, then by their text. */
export function compareIds(a: string, b: string): number {
  return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
}

/** Where a line of a thread's share of a file is in the file: its line, and the chunk it came in. */
export interface ChunkLines {
  locate(localLine: number): { line: number; chunk: number };
}

/**
 * Whether the record ids of the staged events came in strictly increasing order, shorter ids first
 * (numeric ids in numeric order): a strict order, so such ids are all distinct. One out of order and
 * the merge looks for repeats as for any file.
 */
export class IdOrder {
  private firstId: string | null = null;
  private last: string | null = null;
  private increasing = true;

  add(id: string): void {
    if (this.firstId === null) this.firstId = id;
    if (!this.increasing) return;
    const last = this.last;
    if (last !== null && compareIds(id, last) <= 0) this.increasing = false;
    this.last = id;
  }

  /** The ids seen, as a segment of chunk `chunk` (null when none was seen). */
  segment(chunk: number): IdSegment | null {
    return this.firstId === null || this.last === null ? null : { chunk, first: this.firstId, last: this.last, increasing: this.increasing };
  }

  get strictlyIncreasing(): boolean {
    return this.increasing;
  }
}

export interface StagingOptions {
  runId: string;
  onProgress?: (progress: LoadProgress) => void;
  /**
   * The input is this thread's share of a file cut into chunks (staging-thread.ts): lines are
   * numbered as in the file, the staging tables exist already, and rows of one record are collapsed
   * only within a chunk (the merge collapses those that straddle two).
   */
  chunks?: ChunkLines;
}

/** Step 1: the input as a stream of parsed records (CSV, compressed or not, or SODA rows). */
export function openReading(source: SourceDefinition, input: LoadInput, resolver: BblResolver, known: KnownLines | null = null, fileLine?: (line: number) => number): Reading {
  if (input.kind === 'soda') return { parse: parseSodaRows(source, input.rows, { resolver, part: input.part, sodaFields: input.sodaFields }), bytes: () => 0 };
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  input.stream.on('error', (error) => counter.destroy(error));
  const parse = parseSource(source, uncompressed(input.stream.pipe(counter)), {
    resolver, part: input.part, fieldNames: input.fieldNames ?? undefined, ...(known ? { lineHashes: { known, fileLine } } : {}),
  });
  return { parse, bytes: () => bytes };
}

/** Step 2: every record into its staging table (events, facts by kind, quarantined rows), by COPY. */
export async function stageRecords(pool: Pool, source: SourceDefinition, reading: Reading, options: StagingOptions, totalBytes: number | null): Promise<Staged> {
  const writers = new Map<StagingKind, CopyWriter>();
  const writer = async (kind: StagingKind) => {
    let w = writers.get(kind);
    if (!w) {
      w = await openStaging(pool, kind, options.runId, options.chunks !== undefined);
      writers.set(kind, w);
    }
    return w;
  };
  let ids = new IdOrder();
  let chunk = -1;
  const segments: IdSegment[] = [];
  const endChunk = () => {
    const segment = ids.segment(chunk);
    if (segment) segments.push(segment);
    ids = new IdOrder();
  };
  // the hash of the line a record of one row came from (a record of several rows stores none)
  let pending: { line: number; hash: bigint } | null = null;
  const hashOf = (staged: StagedEvent) => (staged.rows === 1 && pending?.line === staged.line ? pending.hash : null);
  const stageEvent = async (staged: StagedEvent | null, lineHash: bigint | null = staged ? hashOf(staged) : null) => {
    if (!staged) return;
    ids.add(staged.event.source_record_id);
    await (await writer('events')).write(eventRow(staged, lineHash));
  };
  const adjacent = new AdjacentRows(!LATEST_FILING_WINS.includes(source.key));
  const { parse } = reading;
  let lastReport = 0;
  try {
    for await (const record of parse) {
      const { outcome } = record;
      let { lineNumber } = record;
      if (options.chunks) {
        const at = options.chunks.locate(lineNumber);
        if (at.chunk !== chunk) {
          await stageEvent(adjacent.flush());
          endChunk();
          chunk = at.chunk;
        }
        lineNumber = at.line;
      }
      if (outcome.kind === 'ok') {
        const lineHash = record.lineHash ?? null;
        if (outcome.events.length === 1) {
          await stageEvent(adjacent.push(lineNumber, outcome.events[0]));
          pending = lineHash === null ? null : { line: lineNumber, hash: lineHash };
        } else {
          await stageEvent(adjacent.flush());
          for (const event of outcome.events) await stageEvent(stagedAlone(lineNumber, event), lineHash);
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
    endChunk();
    // a file of unchanged lines still has its (empty) staged events: its merge runs, and closes what vanished
    if (parse.counters.unchangedLines > 0) await writer('events');
    for (const w of writers.values()) await w.close();
  } catch (error) {
    for (const w of writers.values()) w.abort(error as Error);
    await dropStaging(pool, options.runId).catch(() => undefined);
    throw error;
  }
  const tables = new Map([...writers].map(([kind, w]) => [kind, w.table] as const));
  return { tables, eventIdsDistinct: segments.every((s) => s.increasing), ...(options.chunks ? { idSegments: segments } : {}) };
}

