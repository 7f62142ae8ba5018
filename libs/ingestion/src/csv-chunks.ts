/** A piece of a CSV file's text that starts and ends on record boundaries. */
export interface CsvChunk {
  /** 0: the header (with any blank lines before it); then the pieces of the body in file order. */
  index: number;
  bytes: Buffer;
  /** Line of the file the chunk starts on (the file's first line is 1). */
  firstLine: number;
  /** Lines the chunk holds: its newline bytes (it ends with one, unless it is the end of the file). */
  lines: number;
}

const NEWLINE = 0x0a;
const QUOTE = 0x22;

/**
 * Cuts the text of a CSV file (bytes, already inflated) into chunks of at least `minBytes` that end
 * on a newline outside quotes, so that each chunk holds whole records and can be parsed on its own
 * after the header (staging-thread.ts stages one file on several threads this way). A field is
 * quoted from an opening quote to its closing one, doubled quotes inside it counting twice, so a
 * newline is outside quotes where the quotes before it in the file are even in number. A malformed
 * file whose stray quotes make that count wrong is still cut only at newlines: each thread
 * quarantines what it cannot read (csv-records.ts), though around a stray quote not always the same
 * lines as one reader of the whole file would.
 */
export class CsvChunker {
  private pieces: Buffer[] = [];
  private pendingBytes = 0;
  private quotesOdd = false;
  /** Offset in the pending bytes of the last newline outside quotes (-1: none yet). */
  private boundary = -1;
  private nextIndex = 0;
  private nextLine = 1;

  constructor(private readonly minBytes: number) {}

  /** Adds bytes of the file; returns the chunks they complete. */
  push(bytes: Buffer): CsvChunk[] {
    if (bytes.length === 0) return [];
    const out: CsvChunk[] = [];
    if (this.nextIndex === 0) {
      // the header is cut from the first bytes: its quotes count from the start of the file
      this.pieces = [Buffer.concat([...this.pieces, bytes])];
      this.pendingBytes = this.pieces[0].length;
      const header = firstRecordEnd(this.pieces[0]);
      if (header < 0) return out;
      out.push(this.cut(header + 1));
      const rest = this.pieces[0] ?? Buffer.alloc(0);
      this.pieces = [];
      this.pendingBytes = 0;
      bytes = rest;
    }
    const offset = this.pendingBytes;
    this.pieces.push(bytes);
    this.pendingBytes += bytes.length;
    this.scan(bytes, offset);
    if (this.boundary >= 0 && this.boundary + 1 >= this.minBytes) out.push(this.cut(this.boundary + 1));
    return out;
  }

  /** The rest of the file, once it has all been pushed. */
  end(): CsvChunk[] {
    return this.pendingBytes === 0 ? [] : [this.cut(this.pendingBytes)];
  }

  /** Counts the quotes of a new piece, remembering the last newline outside quotes. */
  private scan(piece: Buffer, offset: number): void {
    let at = 0;
    while (at < piece.length) {
      const quote = piece.indexOf(QUOTE, at);
      if (!this.quotesOdd) {
        const end = quote === -1 ? piece.length : quote;
        if (end > at) {
          const newline = piece.lastIndexOf(NEWLINE, end - 1);
          if (newline >= at) this.boundary = offset + newline;
        }
      }
      if (quote === -1) return;
      this.quotesOdd = !this.quotesOdd;
      at = quote + 1;
    }
  }

  /** The first `end` pending bytes as the next chunk. */
  private cut(end: number): CsvChunk {
    const text = this.pieces.length === 1 ? this.pieces[0] : Buffer.concat(this.pieces, this.pendingBytes);
    const bytes = text.subarray(0, end);
    let lines = 0;
    for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) lines += 1;
    const chunk: CsvChunk = { index: this.nextIndex++, bytes, firstLine: this.nextLine, lines };
    this.nextLine += lines;
    const rest = text.subarray(end);
    this.pieces = rest.length > 0 ? [rest] : [];
    this.pendingBytes = rest.length;
    this.boundary = this.boundary >= end ? this.boundary - end : -1;
    return chunk;
  }
}

/**
 * The newline that ends the file's first record that is not blank (its header), counting quotes
 * from the start; -1 while the bytes so far hold no such newline.
 */
function firstRecordEnd(text: Buffer): number {
  let odd = false;
  let blank = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === QUOTE) odd = !odd;
    if (c === NEWLINE && !odd) {
      if (!blank) return i;
      continue;
    }
    if (c !== 0x0d && c !== 0x20 && c !== NEWLINE && !(i < 3 && (c === 0xef || c === 0xbb || c === 0xbf))) blank = false;
  }
  return -1;
}
