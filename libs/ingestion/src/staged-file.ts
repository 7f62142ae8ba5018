import type { Readable } from 'node:stream';
import type { ParseCounters, SodaFieldMap } from '@bhis/sources';
import type { LoadProgress } from '@bhis/runs';
import type { StagingKind } from './staging';

/*
 * What staging a file takes and what it leaves for its merge: the types of the staging stage
 * (stage-records.ts, staging-thread.ts), which the load that merges (load-source.ts) uses.
 */

/** `part` names the part of a multi-part source (by default: the header decides, or the first on Open Data). */
export type LoadInput =
  | { kind: 'csv'; stream: Readable; totalBytes: number | null; part?: string; fieldNames?: ReadonlyMap<string, string> | null }
  | { kind: 'soda'; rows: AsyncIterable<Record<string, unknown>>; part?: string; sodaFields?: SodaFieldMap };

/** The input when it is a file. */
export type CsvInput = Extract<LoadInput, { kind: 'csv' }>;

/**
 * When a file is staged on two threads: from `minBytes` (as stored, compressed or not), cut into
 * chunks of at least `chunkBytes` (INGEST_SPLIT_MIN_BYTES, INGEST_SPLIT_CHUNK_BYTES).
 */
export interface SplitStaging {
  minBytes: number;
  chunkBytes: number;
}

/** How a file is staged. */
export interface FileStagingOptions {
  runId: string;
  /**
   * A CSV file is staged in a staging thread (true, the default; INGEST_STAGING_THREADS), or in the
   * loading thread (false).
   */
  stagingThreads?: boolean;
  /** A CSV file this large may be staged on two threads; without it, on one. */
  split?: SplitStaging;
  /** The old-generation heap a staging thread may grow to, in MB (INGEST_THREAD_HEAP_MB); V8's default without it. */
  threadHeapMb?: number;
  onProgress?: (progress: LoadProgress) => void;
}

/** What the parse of a file counted, and how many bytes of it were read. */
export interface ParseSummary {
  counters: ParseCounters;
  bytes: number;
}

/** The staging table each kind of row went to (only the kinds the file had). */
export type StagedTables = ReadonlyMap<StagingKind, string>;

/** The record ids one chunk of a file staged (stage-records.ts, `ChunkLines`). */
export interface IdSegment {
  chunk: number;
  first: string;
  last: string;
  increasing: boolean;
}

/** What staging a file left for its merge. */
export interface Staged {
  tables: StagedTables;
  /**
   * No two staged events share a record id (the file lists its records in id order, as the synthetic
   * city's files do): the merge need not look for repeated records (merge-events.ts).
   */
  eventIdsDistinct: boolean;
  /**
   * A file staged on several threads (staging-thread.ts): the record ids of each of its chunks, in
   * the order they came. `eventIdsDistinct` then speaks of each chunk alone.
   */
  idSegments?: IdSegment[];
  /**
   * A file staged on several threads whose ids repeat, if at all, only where one chunk ends and the
   * next begins (a record whose rows straddle the cut): these ids are the only ones the merge
   * collapses (merge-events.ts).
   */
  repeatedIdsOnly?: string[];
}

/** A file staged, and what its parse counted. */
export interface StagedFile {
  staged: Staged;
  parsed: ParseSummary;
}
