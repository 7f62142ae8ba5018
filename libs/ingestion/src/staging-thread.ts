import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Pool, PoolConfig } from 'pg';
import type { SourceDefinition } from '@bhis/sources';
import type { LoadInput, LoadOptions, ParseSummary } from './load-source';
import type { Staged } from './stage-records';
import { dropStaging } from './staging';
import type { FromStagingThread, StagingThreadData, ToStagingThread } from './staging-thread-worker';

/** The staging thread's script, next to this one in a build (tests that run the TypeScript sources have none: their loads stage in this thread). */
const WORKER_FILE = path.join(__dirname, 'staging-thread-worker.js');

/** Chunks of the file sent to the staging thread and not yet taken by its parser: the reading pauses beyond. */
const CHUNKS_IN_FLIGHT = 8;

export function stagingThreadAvailable(): boolean {
  return existsSync(WORKER_FILE);
}

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

/**
 * Steps 1 and 2 of a load (stage-records.ts) in a thread of its own: this thread reads the file and
 * hands its bytes on, the staging thread parses, maps, encodes and COPYs them into the run's staging
 * tables. Node runs one thread per core at most: two loads at once (INGEST_CONCURRENCY) then parse
 * on both cores, where they took turns on one before (docs/adr/0011-event-storage-and-load-path.md).
 * A failure leaves no staging table behind, as in this thread.
 */
export function stageInThread(pool: Pool, source: SourceDefinition, input: Extract<LoadInput, { kind: 'csv' }>, options: LoadOptions): Promise<{ staged: Staged; parsed: ParseSummary }> {
  const data: StagingThreadData = {
    pool: connectionSettings(pool),
    source: source.key,
    part: input.part,
    fieldNames: input.fieldNames ? [...input.fieldNames] : null,
    runId: options.runId,
    totalBytes: input.totalBytes,
  };
  const worker = new Worker(WORKER_FILE, { workerData: data });
  const send = (message: ToStagingThread) => worker.postMessage(message);
  return new Promise((resolve, reject) => {
    const { stream } = input;
    let inFlight = 0;
    let settled = false;
    let readError: Error | null = null;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      stream.destroy();
      void worker.terminate();
      void dropStaging(pool, options.runId).catch(() => undefined).then(() => reject(readError ?? error));
    };
    stream.on('data', (chunk: Buffer) => {
      send({ chunk });
      if (++inFlight >= CHUNKS_IN_FLIGHT) stream.pause();
    });
    stream.on('end', () => send({ end: true }));
    stream.on('error', (error: Error) => {
      readError = error;
      send({ fail: error.message });
    });
    worker.on('message', (message: FromStagingThread) => {
      if ('ack' in message) {
        if (--inFlight < CHUNKS_IN_FLIGHT && !settled) stream.resume();
      } else if ('progress' in message) {
        options.onProgress?.({ phase: 'parsing', rows: message.progress.rows, bytes: message.progress.bytes, total_bytes: input.totalBytes });
      } else if ('staged' in message) {
        settled = true;
        resolve({ staged: { tables: new Map(message.staged), eventIdsDistinct: message.eventIdsDistinct }, parsed: { counters: message.counters, bytes: message.bytes } });
      } else {
        fail(Object.assign(new Error(message.failed.message), message.failed.code ? { code: message.failed.code } : {}));
      }
    });
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the staging thread stopped (exit code ${code}) before the file was staged`)));
  });
}
