import { Compressor, Decompressor } from 'zstd-napi';

/** Every zstd frame starts with these 4 bytes: a stored record leaves them out (record-zstd.ts). */
const MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);

/**
 * The zstd parameters of records. Level 3, the content size in the frame header (a frame of one
 * segment then needs no window descriptor), no checksum (Postgres checks its pages), no dictionary
 * id (byte 0 of a record names the dictionary). A refresh compares records as bytes, so these and
 * the zstd version (zstd-napi is pinned in package.json) decide what stored records look like:
 * `record-zstd.spec.ts` holds the bytes of known records and fails when an upgrade changes them.
 */
const PARAMETERS = { compressionLevel: 3, contentSizeFlag: true, checksumFlag: false, dictIDFlag: false } as const;

/**
 * zstd compression of short records with a dictionary digested once: the compressor keeps the
 * dictionary's tables across records, where a zlib stream hashes its preset dictionary again for
 * each one (docs/adr/0011-event-storage-and-load-path.md, sixth step).
 */
export class RecordZstd {
  private readonly compressor = new Compressor();
  private readonly decompressor = new Decompressor();

  constructor(dictionary: Buffer) {
    this.compressor.setParameters(PARAMETERS);
    this.compressor.loadDictionary(dictionary);
    this.decompressor.loadDictionary(dictionary);
  }

  /** `prefix` (a byte naming the dictionary) followed by the zstd frame of `text` without its magic number. */
  compress(prefix: number, text: string): Buffer {
    const frame = this.compressor.compress(Buffer.from(text, 'utf8'));
    frame[MAGIC.length - 1] = prefix;
    return frame.subarray(MAGIC.length - 1);
  }

  /** The text of a record written by `compress` (its byte 0 already read by the caller). */
  decompress(record: Buffer): string {
    const frame = Buffer.allocUnsafe(record.length + MAGIC.length - 1);
    MAGIC.copy(frame, 0);
    record.copy(frame, MAGIC.length, 1);
    return this.decompressor.decompress(frame).toString('utf8');
  }
}
