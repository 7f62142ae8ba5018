import type { Readable } from 'node:stream';
import type { Pool, PoolConfig } from 'pg';
import type { KnownLines, SourceDefinition } from '@bhis/sources';
import { CsvChunker, type CsvChunk } from './csv-chunks';
import type { CsvInput, FileStagingOptions, IdSegment, StagedFile } from './staged-file';
import { idsAcrossChunks, sumCounters } from './staged-chunks';
import { createStaging, dropStaging, type StagingKind } from './staging';
import type { FromStagingThread, StagingThreadData, ToStagingThread } from './staging-thread-messages';
import { type StagingLease, stagingThreads } from './staging-thread-pool';
import { threadError } from './thread-failure';
import { uncompressed } from './uncompressed';

/** Chunks of the file sent to the staging thread and not yet taken by its parser: the reading pauses beyond. */
const CHUNKS_IN_FLIGHT = 8;

/** The pool's connection settings, as a staging thread can receive them (no functions, no class instances). */
function connectionSettings(pool: Pool): PoolConfig {
  const options = (pool as unknown as { options: Record<string, unknown> }).options;
  const settings: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    const plain = value === null || ['string', 'number', 'boolean'].includes(typeof value) || (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype);
    if (plain) settings[key] = value;
  }
  return settings as PoolConfig;
}

/** What a staging thread is started with. */
function threadData(pool: Pool, source: SourceDefinition, input: CsvInput, options: FileStagingOptions, split: boolean): StagingThreadData {
  return {
    pool: connectionSettings(pool),
    source: source.key,
    part: input.part,
    fieldNames: input.fieldNames ? [...input.fieldNames] : null,
    runId: options.runId,
    totalBytes: input.totalBytes,
    split,
  };
}

/**
 * Steps 1 and 2 of a load (stage-records.ts) in a thread of its own: this thread reads the file and
 * hands its bytes on, the staging thread parses, maps, encodes and COPYs them into the run's staging
 * tables. Node runs one thread per core at most: two loads at once (INGEST_CONCURRENCY) then parse
 * on both cores, where they took turns on one before (docs/adr/0011-event-storage-and-load-path.md).
 * The source's stored line hashes (`known`, read meanwhile) are sent first, and the file once they are.
 * A failure leaves no staging table behind, as in this thread.
 */
export function stageInThread(
  pool: Pool,
  source: SourceDefinition,
  input: CsvInput,
  options: FileStagingOptions,
  known: Promise<KnownLines | null>,
  split?: { threads: number; chunkBytes: number },
): Promise<StagedFile> {
  if (split && split.threads > 1) return stageOnThreads(pool, source, input, options, known, split.threads, split.chunkBytes);
  return new Promise((resolve, reject) => {
    const { stream } = input;
    let inFlight = 0;
    let settled = false;
    let readError: Error | null = null;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      stream.destroy();
      thread.destroy();
      void dropStaging(pool, options.runId).catch(() => undefined).then(() => reject(readError ?? error));
    };
    const onMessage = (message: FromStagingThread) => {
      if ('ack' in message) {
        if (--inFlight < CHUNKS_IN_FLIGHT && !settled) stream.resume();
      } else if ('progress' in message) {
        options.onProgress?.({ phase: 'parsing', rows: message.progress.rows, bytes: message.progress.bytes, total_bytes: input.totalBytes });
      } else if ('staged' in message) {
        settled = true;
        thread.release();
        resolve({ staged: { tables: new Map(message.staged), eventIdsDistinct: message.eventIdsDistinct }, parsed: { counters: message.counters, bytes: message.bytes } });
      } else {
        // the thread caught the failure and ended its staging: it takes the next file
        thread.release();
        fail(threadError(message.failed));
      }
    };
    const thread: StagingLease = stagingThreads.lease(threadData(pool, source, input, options, false), options.threadHeapMb, { message: (m) => onMessage(m), failed: (e) => fail(e) });
    const send = (message: ToStagingThread) => thread.send(message);
    const read = () => {
      stream.on('data', (chunk: Buffer) => {
        send({ chunk });
        if (++inFlight >= CHUNKS_IN_FLIGHT) stream.pause();
      });
      stream.on('end', () => send({ end: true }));
      stream.on('error', (error: Error) => {
        readError = error;
        send({ fail: error.message });
      });
    };
    known.then((lines) => {
      if (settled) return;
      send(knownMessage(lines));
      read();
    }, fail);
  });
}

/**
 * One file staged on `threads` staging threads at once (load-source.ts decides when): this thread
 * inflates the file and cuts its text into chunks of whole records of at least `chunkBytes` (csv-chunks.ts); each staging
 * thread gets the header and every `threads`-th chunk, parses, maps and COPYs them into the run's
 * staging tables, created here beforehand, and numbers lines as the file does. Rows of one record
 * that straddle a cut are staged on both sides; the record ids of each chunk tell the merge which
 * records may repeat (`idsAcrossChunks`). Any thread that fails stops them all, and no staging table
 * is left behind.
 */
async function stageOnThreads(
  pool: Pool,
  source: SourceDefinition,
  input: CsvInput,
  options: FileStagingOptions,
  known: Promise<KnownLines | null>,
  threads: number,
  chunkBytes: number,
): Promise<StagedFile> {
  await createStaging(pool, options.runId);
  const data = threadData(pool, source, input, options, true);
  return new Promise((resolve, reject) => {
    const { stream } = input;
    let bytesRead = 0;
    let text: Readable | null = null;
    const chunker = new CsvChunker(chunkBytes);
    const inFlight: number[] = Array.from({ length: threads }, () => 0);
    const rows: number[] = Array.from({ length: threads }, () => 0);
    const results: Extract<FromStagingThread, { staged: unknown }>[] = [];
    let settled = false;
    let readError: Error | null = null;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      text?.destroy();
      stream.destroy();
      for (const thread of leases) thread.destroy();
      void dropStaging(pool, options.runId).catch(() => undefined).then(() => reject(readError ?? error));
    };
    const onMessage = (i: number, message: FromStagingThread) => {
      if ('ack' in message) {
        inFlight[i] -= 1;
        if (!settled && inFlight.every((n) => n < CHUNKS_IN_FLIGHT)) text?.resume();
      } else if ('progress' in message) {
        rows[i] = message.progress.rows;
        options.onProgress?.({ phase: 'parsing', rows: rows.reduce((a, b) => a + b, 0), bytes: bytesRead, total_bytes: input.totalBytes });
      } else if ('staged' in message) {
        leases[i].release();
        results.push(message);
        if (results.length === threads) {
          settled = true;
          resolve(combine(results, bytesRead));
        }
      } else {
        leases[i].release();
        fail(threadError(message.failed));
      }
    };
    const leases: StagingLease[] = Array.from({ length: threads }, (_, i) =>
      stagingThreads.lease(data, options.threadHeapMb, { message: (m) => onMessage(i, m), failed: (e) => fail(e) }),
    );
    const send = (i: number, chunk: CsvChunk) => {
      leases[i].send({ chunk: chunk.bytes, place: { index: chunk.index, firstLine: chunk.firstLine, lines: chunk.lines } });
      inFlight[i] += 1;
    };
    const dispatch = (chunks: CsvChunk[]) => {
      for (const chunk of chunks) {
        if (chunk.index === 0) leases.forEach((_, i) => send(i, chunk));
        else send((chunk.index - 1) % threads, chunk);
      }
      if (inFlight.some((n) => n >= CHUNKS_IN_FLIGHT)) text?.pause();
    };
    const toAll = (message: ToStagingThread) => leases.forEach((thread) => thread.send(message));
    known.then((lines) => {
      if (settled) return;
      toAll(knownMessage(lines));
      stream.on('data', (chunk: Buffer) => (bytesRead += chunk.length));
      text = readChunks(stream, chunker, dispatch, toAll, (error) => (readError = error));
    }, fail);
  });
}

/** The file's text, inflated and cut into chunks for the threads (`dispatch`), then its end or its error. */
function readChunks(
  stream: Readable,
  chunker: CsvChunker,
  dispatch: (chunks: CsvChunk[]) => void,
  toAll: (message: ToStagingThread) => void,
  failed: (error: Error) => void,
): Readable {
  const text = uncompressed(stream);
  text.on('data', (piece: Buffer) => dispatch(chunker.push(piece)));
  text.on('end', () => {
    dispatch(chunker.end());
    toAll({ end: true });
  });
  text.on('error', (error: Error) => {
    failed(error);
    toAll({ fail: error.message });
  });
  return text;
}

/** The first message to a staging thread: the stored line hashes, in the memory they share with this thread. */
function knownMessage(lines: KnownLines | null): ToStagingThread {
  return { known: lines && { hashes: lines.hashes, seen: lines.seen, lines: lines.lines } };
}

/** What the threads of one file staged, as one staging of the file. */
function combine(results: Extract<FromStagingThread, { staged: unknown }>[], bytes: number): StagedFile {
  const tables = new Map<StagingKind, string>();
  for (const result of results) for (const [kind, table] of result.staged) tables.set(kind, table);
  const segments: IdSegment[] = results.flatMap((r) => r.idSegments ?? []);
  const { distinct, repeatsOnly } = idsAcrossChunks(segments);
  return {
    staged: { tables, eventIdsDistinct: distinct, repeatedIdsOnly: repeatsOnly ?? undefined },
    parsed: { counters: sumCounters(results.map((r) => r.counters)), bytes },
  };
}
