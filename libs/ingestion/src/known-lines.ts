import { pipeline } from 'node:stream/promises';
import type { Pool } from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { KnownLines, type SourceDefinition } from '@bhis/sources';
import { LATEST_FILING_WINS } from './merge-refinements';

/**
 * Sources whose merge reads more than the line (docs/adr/0020-unchanged-lines-skipped.md): the HPD
 * complaints merge their problems with the stored ones and link 311 requests, whose marks the
 * complaints' merge sets; latest-filing sources choose among the rows of a record.
 */
const MERGE_READS_MORE = ['hpd_complaints', 'nyc311', ...LATEST_FILING_WINS];

/** Whether a load of the source skips the lines it has stored already: an events-only source whose event is its line. */
export function skipsUnchangedLines(source: SourceDefinition): boolean {
  return source.produces.events.length > 0 && source.produces.facts.length === 0 && !MERGE_READS_MORE.includes(source.key);
}

/** COPY's binary layout: an 11-byte signature, flags and extension length; each row 2 + 4 + 8 bytes; a 2-byte trailer. */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const HEADER_BYTES = 19;
const ROW_BYTES = 14;

/**
 * The line hashes stored for the source (`events.line_hash`), sorted, in one buffer a file's staging
 * threads share: read by one `COPY ... TO STDOUT (FORMAT binary)` (14 bytes a line on the wire, no
 * row objects), not row by row.
 */
export async function loadKnownLines(pool: Pool, source: SourceDefinition): Promise<KnownLines | null> {
  if (!skipsUnchangedLines(source)) return null;
  const client = await pool.connect();
  try {
    const chunks: Buffer[] = [];
    const stream = client.query(copyTo(
      `COPY (SELECT line_hash FROM events WHERE source = ${client.escapeLiteral(source.key)} AND line_hash IS NOT NULL ORDER BY 1) TO STDOUT (FORMAT binary)`,
    ));
    for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
    const bytes = Buffer.concat(chunks);
    const rows = Math.max(0, Math.floor((bytes.length - HEADER_BYTES - 2) / ROW_BYTES));
    const hashes = new BigInt64Array(new SharedArrayBuffer(rows * 8));
    for (let i = 0; i < rows; i++) hashes[i] = bytes.readBigInt64BE(HEADER_BYTES + i * ROW_BYTES + 6);
    return new KnownLines(hashes);
  } finally {
    client.release();
  }
}

/** A row of `unchanged` in COPY's binary layout: 2 fields, line_no (4 bytes) and line_hash (8). */
const UNCHANGED_ROW_BYTES = 2 + 4 + 4 + 4 + 8;

/**
 * The staging table `unchanged` (staging.ts) of the run: the stored hashes this load met, each with the
 * line it was met on, written by one binary COPY from the buffers the staging threads marked.
 */
export async function writeUnchanged(pool: Pool, table: string, known: KnownLines): Promise<number> {
  const { seen, lines, hashes } = known;
  let met = 0;
  for (let i = 0; i < seen.length; i++) met += seen[i];
  const bytes = Buffer.alloc(HEADER_BYTES + met * UNCHANGED_ROW_BYTES + 2);
  SIGNATURE.copy(bytes, 0);
  let at = HEADER_BYTES;
  for (let i = 0; i < seen.length; i++) {
    if (seen[i] === 0) continue;
    at = bytes.writeInt16BE(2, at);
    at = bytes.writeInt32BE(4, at);
    at = bytes.writeInt32BE(lines[i], at);
    at = bytes.writeInt32BE(8, at);
    at = bytes.writeBigInt64BE(hashes[i], at);
  }
  bytes.writeInt16BE(-1, at);
  const client = await pool.connect();
  try {
    await pipeline(async function* () { yield bytes; }, client.query(copyFrom(`COPY ${table} (line_no, line_hash) FROM STDIN (FORMAT binary)`)));
  } finally {
    client.release();
  }
  return met;
}
