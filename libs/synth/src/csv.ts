import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { constants, createGzip } from 'node:zlib';

const NEEDS_QUOTES = /[",\r\n]/;

/** RFC 4180 quoting as in the Socrata exports: quote only when the field holds a comma, quote or newline. */
export function csvField(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function csvLine(fields: readonly string[]): string {
  let line = '';
  for (let i = 0; i < fields.length; i++) {
    if (i > 0) line += ',';
    line += csvField(fields[i]);
  }
  return line + '\n';
}

/** Quotes every non-empty field and leaves empty ones bare (`"BX","5480",,"R3A"`), as the PLUTO and HPD jurisdiction files do. */
export function csvLineQuoteAll(fields: readonly string[]): string {
  let line = '';
  for (let i = 0; i < fields.length; i++) {
    if (i > 0) line += ',';
    const value = fields[i];
    if (value !== '') line += `"${value.replace(/"/g, '""')}"`;
  }
  return line + '\n';
}

const FLUSH_AT = 1 << 16;

/**
 * One output file: lines are buffered and handed to the stream in 64 KiB chunks; `drain()` waits
 * for the stream when it asks for backpressure, so memory stays bounded however big the city is.
 * With `gzip` the file is written gzip-compressed (`bytes` still counts the CSV text).
 */
export class CsvSink {
  rows = 0;
  bytes = 0;
  private pending: string[] = [];
  private pendingLength = 0;
  private blocked = false;
  private readonly stream: Writable;
  private readonly file: Writable;

  constructor(
    readonly fileName: string,
    path: string,
    header: string,
    gzip = false,
    /** rewrites each line before it is written (a file in an older layout) */
    private readonly rewrite?: (line: string) => string,
  ) {
    this.file = createWriteStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 });
    this.file.on('error', () => undefined); // surfaced by close()
    if (gzip) {
      const compressor = createGzip({ level: 4, chunkSize: 1 << 16, flush: constants.Z_NO_FLUSH });
      compressor.on('error', (error) => this.file.destroy(error));
      compressor.pipe(this.file);
      this.stream = compressor;
    } else {
      this.stream = this.file;
    }
    this.writeRaw(header + '\n');
  }

  /** Appends one complete line (ending with a newline). Counts a row. */
  push(line: string): void {
    this.rows++;
    this.writeRaw(this.rewrite ? this.rewrite(line) : line);
  }

  private writeRaw(text: string): void {
    this.pending.push(text);
    this.pendingLength += text.length;
    if (this.pendingLength >= FLUSH_AT) this.flush();
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    const chunk = this.pending.join('');
    this.pending = [];
    this.pendingLength = 0;
    this.bytes += Buffer.byteLength(chunk, 'utf8');
    if (!this.stream.write(chunk)) this.blocked = true;
  }

  /** Resolves once the underlying stream has room again. */
  async drain(): Promise<void> {
    if (!this.blocked) return;
    this.blocked = false;
    if (!this.stream.writableNeedDrain) return;
    await new Promise<void>((resolve) => this.stream.once('drain', () => resolve()));
  }

  async close(): Promise<void> {
    this.flush();
    await new Promise<void>((resolve, reject) => {
      this.file.once('error', reject);
      this.file.once('finish', () => resolve());
      this.stream.end();
    });
  }
}
