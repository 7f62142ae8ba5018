import { LRUCache } from 'lru-cache';
import type { ChangeChannel, ChangeListener } from './change-listener';

export interface NotifiedCacheOptions<V> {
  /** Most entries kept. */
  maxEntries: number;
  /** Most bytes kept (with `sizeOf`); the least recently used entries go first. */
  maxBytes?: number;
  sizeOf?: (value: V) => number;
}

/**
 * An in-memory LRU cache that is emptied by a change notification on any of its channels and serves
 * nothing while the notification connection is down. A value read from Postgres is kept only if no
 * change was announced while it was being read (`generation()` before the read, `setIfUnchanged`
 * after), so a read that raced with a change never leaves a stale entry behind.
 */
export class NotifiedCache<V extends object> {
  private readonly lru: LRUCache<string, V>;
  private currentGeneration = 0;

  constructor(
    private readonly listener: ChangeListener,
    channels: readonly ChangeChannel[],
    options: NotifiedCacheOptions<V>,
  ) {
    this.lru = new LRUCache<string, V>({
      max: options.maxEntries,
      ...(options.maxBytes && options.sizeOf ? { maxSize: options.maxBytes, sizeCalculation: (value: V) => Math.max(1, options.sizeOf?.(value) ?? 1) } : {}),
    });
    for (const channel of channels) {
      listener.onChange(channel, () => {
        this.currentGeneration += 1;
        this.lru.clear();
      });
    }
  }

  get(key: string): V | undefined {
    return this.listener.isLive() ? this.lru.get(key) : undefined;
  }

  generation(): number {
    return this.currentGeneration;
  }

  setIfUnchanged(generation: number, key: string, value: V): void {
    if (generation === this.currentGeneration && this.listener.isLive()) this.lru.set(key, value);
  }

  get size(): number {
    return this.lru.size;
  }
}
