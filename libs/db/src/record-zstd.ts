import { Decompressor } from 'zstd-napi';
import { CCtx, compressBound, CParameter } from 'zstd-napi/binding';

/** Every zstd frame starts with these 4 bytes: a stored record leaves them out (record-zstd.ts). */
const MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);

/**
 * The zstd parameters of records. Level 3, the content size in the frame header (a frame of one
 * segment then needs no window descriptor), no checksum (Postgres checks its pages), no dictionary
 * id (byte 0 of a record names the dictionary). A refresh compares records as bytes, so these and
 * the zstd version (zstd-napi is pinned in package.json) decide what stored records look like:
 * `record-zstd.spec.ts` holds the bytes of known records and fails when an upgrade changes them.
 */
const PARAMETERS: ReadonlyArray<[CParameter, number]> = [
  [CParameter.compressionLevel, 3],
  [CParameter.contentSizeFlag, 1],
  [CParameter.checksumFlag, 0],
  [CParameter.dictIDFlag, 0],
];

/** Scratch buffers start this large and grow to the largest record seen. */
const SCRATCH_BYTES = 4096;

/**
 * zstd compression of short records with a dictionary digested once: the compressor keeps the
 * dictionary's tables across records, where a zlib stream hashes its preset dictionary again for
 * each one (docs/adr/0011-event-storage-and-load-path.md, "How an event is stored").
 */
export class RecordZstd {
  // the context itself rather than zstd-napi's Compressor: a record is a few hundred bytes, and the
  // Compressor's buffers for the input and the frame cost more than compressing it (a profile of the staging thread)
  private readonly context = new CCtx();
  private readonly decompressor = new Decompressor();
  private input = Buffer.allocUnsafe(SCRATCH_BYTES);
  private frame = Buffer.allocUnsafe(compressBound(SCRATCH_BYTES));

  constructor(dictionary: Buffer) {
    for (const [parameter, value] of PARAMETERS) this.context.setParameter(parameter, value);
    this.context.loadDictionary(dictionary);
    this.decompressor.loadDictionary(dictionary);
  }

  /** `prefix` (a byte naming the dictionary) followed by the zstd frame of `text` without its magic number. */
  compress(prefix: number, text: string): Buffer {
    // at most 3 bytes per UTF-16 unit
    if (text.length * 3 > this.input.length) {
      this.input = Buffer.allocUnsafe(text.length * 3);
      this.frame = Buffer.allocUnsafe(compressBound(this.input.length));
    }
    const length = this.input.write(text, 0, 'utf8');
    const frameLength = this.context.compress2(this.frame, this.input.subarray(0, length));
    this.frame[MAGIC.length - 1] = prefix;
    return Buffer.from(this.frame.subarray(MAGIC.length - 1, frameLength));
  }

  /** The text of a record written by `compress` (its byte 0 already read by the caller). */
  decompress(record: Buffer): string {
    const frame = Buffer.allocUnsafe(record.length + MAGIC.length - 1);
    MAGIC.copy(frame, 0);
    record.copy(frame, MAGIC.length, 1);
    return this.decompressor.decompress(frame).toString('utf8');
  }
}
