import { PassThrough } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { Pool, type PoolConfig } from 'pg';
import type { ParseCounters } from '@bhis/sources';
import { getSource, HeaderMismatchError, KnownLines } from '@bhis/sources';
import type { ThreadFailure } from './thread-failure';
import type { StagingKind } from './staging';
import { type IdSegment, openReading, stageRecords } from './stage-records';
import { type ChunkPlace, ReceivedChunks } from './staged-chunks';
import { loadResolver } from './resolver';

/** What the loading thread gives the staging thread. */
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


/** The CSV reader takes its text this many bytes at a time, however large the chunks it is sent. */
const PIECE_BYTES = 1 << 18;

/** Writes `bytes` in pieces of PIECE_BYTES; `done` once the last has been taken. */
function writeInPieces(input: PassThrough, bytes: Buffer, done: () => void): void {
  for (let at = 0; at < bytes.length; at += PIECE_BYTES) {
    const last = at + PIECE_BYTES >= bytes.length;
    input.write(bytes.subarray(at, at + PIECE_BYTES), last ? done : undefined);
  }
  if (bytes.length === 0) done();
}

/**
 * The staging thread (staging-thread.ts): parses, maps and encodes one file's records and COPYs them
 * into the run's staging tables on connections of its own, while the loading thread reads the file
 * and merges. Every chunk is acknowledged once the parser has taken it (the loading thread's flow control).
 */
async function stage(data: StagingThreadData, port: NonNullable<typeof parentPort>): Promise<void> {
  const send = (message: FromStagingThread) => port.postMessage(message);
  const input = new PassThrough({ highWaterMark: 1 << 16 });
  const received = data.split ? new ReceivedChunks() : undefined;
  let knownLines: (known: KnownLines | null) => void = () => undefined;
  const known = new Promise<KnownLines | null>((resolve) => (knownLines = resolve));
  port.on('message', (message: ToStagingThread) => {
    if ('known' in message) knownLines(message.known ? new KnownLines(message.known.hashes, message.known.seen, message.known.lines) : null);
    else if ('chunk' in message && message.place) received?.add(message.place);
    if ('known' in message) return;
    if ('chunk' in message) writeInPieces(input, Buffer.from(message.chunk.buffer, message.chunk.byteOffset, message.chunk.byteLength), () => send({ ack: true }));
    else if ('end' in message) input.end();
    else input.destroy(new Error(message.fail));
  });
  const pool = new Pool({ ...data.pool, max: 8 });
  try {
    const source = getSource(data.source);
    const reading = openReading(
      source,
      { kind: 'csv', stream: input, totalBytes: data.totalBytes, part: data.part, fieldNames: data.fieldNames && new Map(data.fieldNames) },
      ...(await Promise.all([loadResolver(pool, source), known])),
      received ? (line) => received.locate(line).line : undefined,
    );
    const staged = await stageRecords(pool, source, reading, {
      runId: data.runId,
      onProgress: (p) => send({ progress: { rows: p.rows, bytes: p.bytes ?? 0 } }),
      chunks: received,
    }, data.totalBytes);
    send({ staged: [...staged.tables], eventIdsDistinct: staged.eventIdsDistinct, idSegments: staged.idSegments, counters: reading.parse.counters, bytes: reading.bytes() });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const header =
      error instanceof HeaderMismatchError
        ? { source: error.source, part: error.part, missing: [...error.missing], unexpected: [...error.unexpected], header: [...error.header] }
        : undefined;
    send({ failed: { message: error instanceof Error ? error.message : String(error), code: typeof code === 'string' ? code : undefined, header } });
  } finally {
    await pool.end();
    // the message listener keeps the thread alive: nothing more is coming
    port.unref();
  }
}

if (parentPort) void stage(workerData as StagingThreadData, parentPort);
