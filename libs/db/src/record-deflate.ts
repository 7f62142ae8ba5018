import { constants, createDeflateRaw, deflateRawSync, type ZlibOptions } from 'node:zlib';

/** The part of Node's zlib stream that its own `deflateRawSync` drives (not a public API: checked before use). */
interface ZlibHandle {
  writeSync(flush: number, input: Buffer, inOffset: number, inLength: number, out: Buffer, outOffset: number, outLength: number): void;
}

interface ZlibStream {
  _handle?: ZlibHandle;
  _writeState?: Uint32Array;
  reset(): void;
  on(event: 'error', listener: () => void): void;
}

/** Input and output of one record at a time; a record that needs more goes through `deflateRawSync`. */
const BUFFER_BYTES = 64 * 1024;

/**
 * Raw deflate of short records with a preset dictionary, on one stream reset for each record.
 * Setting a zlib stream up (and hashing its dictionary) is most of the cost of compressing a record
 * of a few hundred bytes: ~17 us with `deflateRawSync`, ~9 on a stream that is reset, which keeps
 * the dictionary. Node has no public call that compresses synchronously on a stream kept open; this
 * uses the one `deflateRawSync` uses, and compresses with `deflateRawSync` instead whenever that call
 * is missing, fails, or once gave other bytes than `deflateRawSync` for the same input (checked on
 * the first record; `record-deflate.spec.ts` checks many).
 */
export class RecordDeflate {
  private stream: ZlibStream | null;
  private readonly input = Buffer.allocUnsafe(BUFFER_BYTES);
  private readonly output = Buffer.allocUnsafe(BUFFER_BYTES);
  private checked = false;

  constructor(private readonly options: ZlibOptions) {
    const stream = createDeflateRaw(options) as unknown as ZlibStream;
    const usable = typeof stream._handle?.writeSync === 'function' && ArrayBuffer.isView(stream._writeState);
    this.stream = usable ? stream : null;
    stream.on('error', () => (this.stream = null));
  }

  /** Whether records still go through the reused stream (false once it was found unusable). */
  get reusesStream(): boolean {
    return this.stream !== null;
  }

  /** `prefix` (a byte naming the dictionary) followed by the raw deflate of `text`. */
  compress(prefix: number, text: string): Buffer {
    const reused = this.stream && this.onStream(prefix, text);
    if (reused && this.checked) return reused;
    const plain = this.plain(prefix, text);
    if (reused) {
      this.checked = true;
      if (!reused.equals(plain)) this.stream = null;
    }
    return plain;
  }

  private plain(prefix: number, text: string): Buffer {
    const body = deflateRawSync(Buffer.from(text, 'utf8'), this.options);
    const record = Buffer.allocUnsafe(body.length + 1);
    record[0] = prefix;
    body.copy(record, 1);
    return record;
  }

  private onStream(prefix: number, text: string): Buffer | null {
    const stream = this.stream as ZlibStream;
    const length = this.input.write(text, 'utf8');
    if (length >= BUFFER_BYTES - 4) return null; // may not have fit
    try {
      stream.reset();
      this.output[0] = prefix;
      (stream._handle as ZlibHandle).writeSync(constants.Z_FINISH, this.input, 0, length, this.output, 1, BUFFER_BYTES - 1);
    } catch {
      this.stream = null;
      return null;
    }
    const [outLeft, inLeft] = stream._writeState as Uint32Array;
    if (outLeft === 0 || inLeft !== 0) return null;
    return Buffer.from(this.output.subarray(0, BUFFER_BYTES - outLeft));
  }
}
