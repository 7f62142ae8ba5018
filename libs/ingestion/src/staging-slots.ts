/**
 * How many loads of one worker read, parse and stage a file at once (one per core). A load that has
 * staged its file gives its slot back before it waits for its turn to merge (merges take turns,
 * load-source.ts), so the next file is staged during a merge instead of after it.
 */
export class StagingSlots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`staging slots must be a whole number of at least 1, not ${size}`);
    this.free = size;
  }

  /** Waits for a slot (first come, first served); the function returned gives it back (once). */
  async acquire(): Promise<() => void> {
    if (this.free > 0) this.free -= 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // a slot given back goes straight to the next waiter, so a newcomer cannot take it first
      if (next) next();
      else this.free += 1;
    };
  }
}
