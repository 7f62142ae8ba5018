import { PassThrough } from 'node:stream';
import { type MessagePort, parentPort } from 'node:worker_threads';
import { Pool } from 'pg';
import { getSource, HeaderMismatchError, KnownLines } from '@bhis/sources';
import { openReading, stageRecords } from './stage-records';
import { ReceivedChunks } from './staged-chunks';
import type { FromStagingThread, StagingJob, StagingThreadData, ToStagingThread } from './staging-thread-messages';
import { loadResolver } from './resolver';

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
 * A staging thread (staging-thread.ts): parses, maps and encodes one file's records and COPYs them
 * into the run's staging tables on connections of its own, while the loading thread reads the file
 * and merges. Every chunk is acknowledged once the parser has taken it (the loading thread's flow control).
 */
async function stage(data: StagingThreadData, port: MessagePort): Promise<void> {
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
    // the loading thread closes the file's port once it has the outcome; the thread waits for the next file (staging-thread-pool.ts)
    await pool.end();
  }
}

// one file at a time: the loading thread sends the next once this one is staged
parentPort?.on('message', (job: StagingJob) => void stage(job.data, job.port));
