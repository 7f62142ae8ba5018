import { PassThrough } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { Pool, type PoolConfig } from 'pg';
import type { ParseCounters } from '@bhis/sources';
import { getSource } from '@bhis/sources';
import type { StagingKind } from './staging';
import { openReading, stageRecords } from './stage-records';
import { loadResolver } from './resolver';

/** What the loading thread gives the staging thread. */
export interface StagingThreadData {
  pool: PoolConfig;
  source: string;
  part?: string;
  fieldNames: [string, string][] | null;
  runId: string;
  totalBytes: number | null;
}

/** Messages from the loading thread: the file's bytes as read, then its end (or the reason it failed). */
export type ToStagingThread = { chunk: Uint8Array } | { end: true } | { fail: string };

/** Messages to the loading thread. */
export type FromStagingThread =
  | { ack: true }
  | { progress: { rows: number; bytes: number } }
  | { staged: [StagingKind, string][]; eventIdsDistinct: boolean; counters: ParseCounters; bytes: number }
  | { failed: { message: string; code?: string } };

/**
 * The staging thread (staging-thread.ts): parses, maps and encodes one file's records and COPYs them
 * into the run's staging tables on connections of its own, while the loading thread reads the file
 * and merges. Every chunk is acknowledged once the parser has taken it (the loading thread's flow control).
 */
async function stage(data: StagingThreadData, port: NonNullable<typeof parentPort>): Promise<void> {
  const send = (message: FromStagingThread) => port.postMessage(message);
  const input = new PassThrough({ highWaterMark: 1 << 16 });
  port.on('message', (message: ToStagingThread) => {
    if ('chunk' in message) input.write(Buffer.from(message.chunk.buffer, message.chunk.byteOffset, message.chunk.byteLength), () => send({ ack: true }));
    else if ('end' in message) input.end();
    else input.destroy(new Error(message.fail));
  });
  const pool = new Pool({ ...data.pool, max: 8 });
  try {
    const source = getSource(data.source);
    const reading = openReading(
      source,
      { kind: 'csv', stream: input, totalBytes: data.totalBytes, part: data.part, fieldNames: data.fieldNames && new Map(data.fieldNames) },
      await loadResolver(pool, source),
    );
    const staged = await stageRecords(pool, source, reading, {
      runId: data.runId,
      onProgress: (p) => send({ progress: { rows: p.rows, bytes: p.bytes ?? 0 } }),
    }, data.totalBytes);
    send({ staged: [...staged.tables], eventIdsDistinct: staged.eventIdsDistinct, counters: reading.parse.counters, bytes: reading.bytes() });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    send({ failed: { message: error instanceof Error ? error.message : String(error), code: typeof code === 'string' ? code : undefined } });
  } finally {
    await pool.end();
    // the message listener keeps the thread alive: nothing more is coming
    port.unref();
  }
}

if (parentPort) void stage(workerData as StagingThreadData, parentPort);
