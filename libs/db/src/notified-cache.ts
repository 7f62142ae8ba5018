import { LRUCache } from 'lru-cache';
import type { ChangeChannel, ChangeListener } from './change-listener';

export interface NotifiedCacheOptions<V> {
  /** Most entries kept (default: one per KiB of `maxBytes`). */
  maxEntries?: number;
  /** Most bytes kept, as counted by `sizeOf`; the least recently used entries go first. 0: keep nothing. */
  maxBytes?: number;
  sizeOf?: (value: V) => number;
}

/** lru-cache sizes its index arrays by the entry limit: bounded by the city (445,000 buildings). */
const MAX_ENTRIES = 1_000_000;

/**
 * An in-memory LRU cache that is emptied by a change notification on any of its channels and serves
 * nothing while the notification connection is down. A value read from Postgres is kept only if no
 * change was announced while it was being read (`generation()` before the read, `setIfUnchanged`
 * after; `getOrLoad` does both), so a read that raced with a change never leaves a stale entry behind.
 */
export class NotifiedCache<V extends object> {
  /** Absent when the budget is 0: the cache is off. */
  private readonly lru: LRUCache<string, V> | undefined;
  private currentGeneration = 0;

  constructor(
    private readonly listener: ChangeListener,
    channels: readonly ChangeChannel[],
    options: NotifiedCacheOptions<V>,
  ) {
    const { maxBytes, sizeOf } = options;
    if (maxBytes === 0) return;
    const max = options.maxEntries ?? Math.min(Math.ceil((maxBytes ?? 0) / 1024), MAX_ENTRIES);
    this.lru = new LRUCache<string, V>({
      max,
      ...(maxBytes && sizeOf ? { maxSize: maxBytes, sizeCalculation: (value: V) => Math.max(1, sizeOf(value)) } : {}),
    });
    for (const channel of channels) {
      listener.onChange(channel, () => {
        this.currentGeneration += 1;
        this.lru?.clear();
      });
    }
  }

  get(key: string): V | undefined {
    return this.listener.isLive() ? this.lru?.get(key) : undefined;
  }

  generation(): number {
    return this.currentGeneration;
  }

  setIfUnchanged(generation: number, key: string, value: V): void {
    if (generation === this.currentGeneration && this.listener.isLive()) this.lru?.set(key, value);
  }

  /** The kept value, or the one `load` reads (kept unless a change was announced meanwhile). */
  async getOrLoad(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const cached = this.get(key);
    if (cached) return cached;
    const generation = this.currentGeneration;
    const value = await load();
    if (value) this.setIfUnchanged(generation, key, value);
    return value;
  }
}
