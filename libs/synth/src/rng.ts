// pure-rand publishes its entry points through package.json "exports", which `moduleResolution: node` does not read.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./pure-rand.d.ts" />
import { xoroshiro128plusFromState, type RandomGenerator } from 'pure-rand/generator/xoroshiro128plus';

/** 32-bit finalizer (murmur3 fmix32): spreads every input bit over the output. */
export function mix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Hash of a list of integers (each taken modulo 2^32). */
export function hashInts(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    h = mix32((h ^ mix32(part >>> 0)) + 0x7f4a7c15 + Math.imul(h, 31));
    // values above 2^32 (large ids) also contribute their high bits
    if (part > 0xffffffff) h = mix32(h ^ Math.floor(part / 0x100000000));
  }
  return h;
}

export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}

/** Turns the user's seed (number or text) into a 32-bit key. */
export function seedKey(seed: number | string): number {
  return typeof seed === 'number' && Number.isInteger(seed) ? hashInts(seed, Math.floor(seed / 0x100000000)) : hashString(String(seed));
}

/** A uniform float in [0, 1) that is a pure function of its inputs (for decisions that must not consume a stream). */
export function hashUnit(...parts: number[]): number {
  return hashInts(...parts) / 0x100000000;
}

/** Stream tags: each kind of draw has its own stream so adding draws to one never shifts another. */
export const Stream = {
  building: 1,
  latent: 2,
  month: 3,
  year: 4,
  owner: 5,
  lotExtra: 6,
  zone: 7,
  outcome: 8,
} as const;

/**
 * Seeded random stream (xoroshiro128+ from pure-rand) with the distributions the generator needs.
 * A stream is identified by (seed, tag, a, b): e.g. (seed, month, building index, month index), so
 * the draws of one building-month never depend on the order or chunking of generation.
 */
export class Rng {
  private readonly gen: RandomGenerator;

  constructor(seed: number, tag: number, a = 0, b = 0) {
    const s0 = hashInts(seed, tag, a, b, 1);
    const s1 = hashInts(seed, tag, a, b, 2);
    const s2 = hashInts(seed, tag, a, b, 3);
    const s3 = hashInts(seed, tag, a, b, 4) | 1; // never an all-zero state
    this.gen = xoroshiro128plusFromState([s0 | 0, s1 | 0, s2 | 0, s3 | 0]);
  }

  /** Uniform in [0, 1). */
  float(): number {
    return (this.gen.next() >>> 0) / 0x100000000;
  }

  /** Uniform integer in [min, max] (both included). */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)];
  }

  /** Picks from [item, weight] pairs. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, w] of items) total += w;
    let r = this.float() * total;
    for (const [item, w] of items) {
      r -= w;
      if (r < 0) return item;
    }
    return items[items.length - 1][0];
  }

  normal(): number {
    const u = 1 - this.float();
    const v = this.float();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  exponential(mean: number): number {
    return -Math.log(1 - this.float()) * mean;
  }

  poisson(mean: number): number {
    if (mean <= 0) return 0;
    if (mean > 40) return Math.max(0, Math.round(mean + Math.sqrt(mean) * this.normal()));
    const limit = Math.exp(-mean);
    let k = 0;
    let p = this.float();
    while (p > limit) {
      k++;
      p *= this.float();
    }
    return k;
  }

  /** Number of failures before the first success, success probability p. */
  geometric(p: number): number {
    return Math.floor(Math.log(1 - this.float()) / Math.log(1 - p));
  }
}
