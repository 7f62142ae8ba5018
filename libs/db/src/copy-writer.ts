import { once } from 'node:events';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Pool, PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { copyRow } from './copy-text';

/** Rows are sent to Postgres in chunks of about this many bytes (one stream write per chunk). */
const CHUNK_BYTES = 256 * 1024;

/**
 * Streams rows into a table with COPY on a connection of its own (a connection runs one COPY at a
 * time), respecting backpressure. The table must exist.
 */
export class CopyWriter {
  rows = 0;
  private buffer = '';
  /** A failure of the COPY statement (e.g. a constraint or a cancelled statement) between writes. */
  private failure: Error | undefined;
  /** The connection went back to the pool: a load that aborts all its writers after one closed does not release it twice. */
  private released = false;

  private constructor(
    private readonly client: PoolClient,
    private readonly stream: Writable,
    readonly table: string,
  ) {
    // without a listener, an error between two writes would be thrown at the process level
    stream.on('error', (error: Error) => (this.failure ??= error));
  }

  static async open(pool: Pool, table: string, prepare?: (client: PoolClient) => Promise<void>): Promise<CopyWriter> {
    const client = await pool.connect();
    try {
      await prepare?.(client);
      return new CopyWriter(client, client.query(copyFrom(`COPY ${table} FROM STDIN`)), table);
    } catch (error) {
      client.release();
      throw error;
    }
  }

  async write(values: readonly unknown[]): Promise<void> {
    if (this.failure) throw this.failure;
    this.rows += 1;
    this.buffer += copyRow(values);
    if (this.buffer.length >= CHUNK_BYTES) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    const chunk = this.buffer;
    this.buffer = '';
    if (chunk && !this.stream.write(chunk)) await once(this.stream, 'drain');
  }

  async close(): Promise<void> {
    try {
      await this.flush();
      const done = once(this.stream, 'finish');
      this.stream.end();
      await done;
    } finally {
      this.release();
    }
  }

  /** Abandons the COPY; the connection is discarded, which ends the statement. */
  abort(error: Error): void {
    this.stream.destroy(error);
    this.release(error);
  }

  private release(error?: Error): void {
    if (this.released) return;
    this.released = true;
    this.client.release(error);
  }
}

function* copyChunks(rows: Iterable<readonly unknown[]>, counted: { rows: number }): Generator<string> {
  let buffer = '';
  for (const row of rows) {
    buffer += copyRow(row);
    counted.rows++;
    if (buffer.length >= CHUNK_BYTES) {
      yield buffer;
      buffer = '';
    }
  }
  if (buffer) yield buffer;
}

/**
 * COPYs rows into `table` (`name (col, ...)`) on the given connection, inside whatever transaction it
 * is in: for a table rewritten as a whole in one transaction, where CopyWriter's own connection could not see it.
 */
export async function copyRowsOn(client: PoolClient, table: string, rows: Iterable<readonly unknown[]>): Promise<number> {
  const counted = { rows: 0 };
  await pipeline(Readable.from(copyChunks(rows, counted)), client.query(copyFrom(`COPY ${table} FROM STDIN`)));
  return counted.rows;
}
