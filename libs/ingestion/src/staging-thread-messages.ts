import type { MessagePort } from 'node:worker_threads';
import type { PoolConfig } from 'pg';
import type { ParseCounters } from '@bhis/sources';
import type { IdSegment } from './staged-file';
import type { ChunkPlace } from './staged-chunks';
import type { StagingKind } from './staging';
import type { ThreadFailure } from './thread-failure';

/*
 * What the loading thread (staging-thread.ts) and a staging thread (staging-thread-worker.ts) say to
 * each other. A staging thread stages one file after another: each file comes as a `StagingJob` on
 * the thread's port, with a port of its own that carries that file's messages.
 */

/** What the loading thread gives the staging thread for one file. */
export interface StagingThreadData {
  pool: PoolConfig;
  source: string;
  part?: string;
  fieldNames: [string, string][] | null;
  runId: string;
  totalBytes: number | null;
  /** The thread stages its share of a file cut into chunks (`CsvChunker`), with the other threads. */
  split: boolean;
}

/** One file for a staging thread, and the port its messages take (closed by the thread once it is staged or failed). */
export interface StagingJob {
  data: StagingThreadData;
  port: MessagePort;
}

/**
 * Messages from the loading thread: first the source's stored line hashes (known-lines.ts, in memory
 * shared with it; null: every line is parsed), then the file's bytes as read (or, split, the chunks of
 * its text this thread stages, each with its place), then its end (or the reason it failed).
 */
export type ToStagingThread = { known: { hashes: BigInt64Array; seen: Uint8Array; lines: Int32Array } | null } | { chunk: Uint8Array; place?: ChunkPlace } | { end: true } | { fail: string };

/** Messages to the loading thread. */
export type FromStagingThread =
  | { ack: true }
  | { progress: { rows: number; bytes: number } }
  | { staged: [StagingKind, string][]; eventIdsDistinct: boolean; idSegments?: IdSegment[]; counters: ParseCounters; bytes: number }
  | { failed: ThreadFailure };
