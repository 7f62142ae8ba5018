/**
 * Bumped whenever a mapping changes what a line of a file becomes (a new attribute, another status
 * word, another record key): the hashes stored before it then match no line, and the next load parses
 * every line again.
 */
export const LINE_MAPPING_VERSION = 1;

/**
 * The hash of one line of a source's file as `events.line_hash` stores it: 64 bits, two 32-bit
 * multiply-xor lanes over the UTF-16 code units of the source key, the mapping version, the file's
 * header and the line's text without its line ending (CRLF and LF files hash alike), each lane
 * finished by a murmur3 avalanche. Not a cryptographic hash: the lines come from the city's exports,
 * and a collision (~1 in 2^64 a pair) would only leave one changed line unread. The header is part of
 * it: the same text under other columns is another line. Computed in place on the text, allocating
 * nothing, for it runs on every line of every file.
 */
export class LineHasher {
  private readonly seed1: number;
  private readonly seed2: number;
  /** The lanes of the last hash. */
  hi = 0;
  lo = 0;

  constructor(source: string, header: readonly string[], fieldNames: ReadonlyMap<string, string> | undefined) {
    const names = fieldNames ? [...fieldNames].map(([display, field]) => `${display}=${field}`).join('\u0001') : '';
    const seed = `${source}\u0000${LINE_MAPPING_VERSION}\u0000${header.join('\u0001')}\u0000${names}\u0000`;
    mix(seed, 0, seed.length, 0x9747b28c, 0x5bd1e995);
    this.seed1 = finish(lane1);
    this.seed2 = finish(lane2);
  }

  /** Hashes `text` from `start` to `end` (a line ending there is left out); the lanes are in `hi` and `lo`. */
  hashRange(text: string, start: number, end: number): void {
    if (end > start && text.charCodeAt(end - 1) === 10) end -= 1;
    if (end > start && text.charCodeAt(end - 1) === 13) end -= 1;
    mix(text, start, end, this.seed1, this.seed2);
    this.hi = finish(lane1 ^ Math.imul(end - start, 0x27d4eb2f));
    this.lo = finish(lane2 ^ lane1);
  }

  /** The hash of a whole record's text (line ending left out), as stored. */
  hash(raw: string): bigint {
    this.hashRange(raw, 0, raw.length);
    return toBigInt(this.hi, this.lo);
  }
}

/** The lanes `mix` leaves (module variables, so that a hash allocates nothing). */
let lane1 = 0;
let lane2 = 0;

/** Runs both lanes, from `h1` and `h2`, over `text` from `start` to `end`, into `lane1` and `lane2`. */
function mix(text: string, start: number, end: number, h1: number, h2: number): void {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x85ebca77);
    h2 = Math.imul(h2 ^ c, 0xc2b2ae3d);
    h1 = (h1 << 13) | (h1 >>> 19);
    h2 = (h2 << 17) | (h2 >>> 15);
  }
  lane1 = h1;
  lane2 = h2;
}

/** murmur3's 32-bit finalizer: every input bit moves about half the output bits. */
function finish(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** The signed 64-bit integer of two lanes (`hi` the upper half), as `events.line_hash` holds it. */
export function toBigInt(hi: number, lo: number): bigint {
  return BigInt.asIntN(64, (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0));
}

/**
 * The line hashes a source has stored, sorted (8 bytes each), and for each whether this load met it
 * and on which line: in memory the loading thread and the file's staging threads share, so that a line
 * met costs a binary search and two stores, and no row of its own.
 */
export class KnownLines {
  /** The hashes as 32-bit halves (little-endian: the low half first). */
  private readonly halves: Int32Array;

  constructor(
    readonly hashes: BigInt64Array,
    /** 1 where this load met the hash. */
    readonly seen: Uint8Array = new Uint8Array(new SharedArrayBuffer(hashes.length)),
    /** The line of the file it was met on. */
    readonly lines: Int32Array = new Int32Array(new SharedArrayBuffer(hashes.length * 4)),
  ) {
    this.halves = new Int32Array(hashes.buffer, hashes.byteOffset, hashes.length * 2);
  }

  get size(): number {
    return this.hashes.length;
  }

  /** The position of the hash `hi`:`lo` (LineHasher's lanes), or -1. */
  indexOf(hi: number, lo: number): number {
    const { halves } = this;
    const ulo = lo >>> 0;
    let a = 0;
    let b = this.hashes.length - 1;
    while (a <= b) {
      const mid = (a + b) >>> 1;
      const h = halves[mid * 2 + 1];
      const l = halves[mid * 2] >>> 0;
      if (h === hi && l === ulo) return mid;
      if (h < hi || (h === hi && l < ulo)) a = mid + 1;
      else b = mid - 1;
    }
    return -1;
  }

  has(hash: bigint): boolean {
    return this.indexOf(Number(BigInt.asIntN(32, hash >> 32n)), Number(BigInt.asIntN(32, hash))) !== -1;
  }

  /** Marks the hash at `index` met on `line`. */
  meet(index: number, line: number): void {
    this.seen[index] = 1;
    this.lines[index] = line;
  }
}
