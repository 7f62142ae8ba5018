import { ApiError } from '@bhis/envelope';

/**
 * Bounds the share of the connection pool that CSV exports may hold: each running export holds one
 * connection for its whole duration, so at most a quarter of the pool (at least one) serves exports
 * and the rest stays free for every other request. An export over the bound is refused at once.
 */
export class ExportSlots {
  private running = 0;
  readonly size: number;

  constructor(poolSize: number) {
    this.size = Math.max(1, Math.floor(poolSize / 4));
  }

  acquire(): () => void {
    if (this.running >= this.size) {
      throw new ApiError('rate_limit_exceeded', `At most ${this.size} CSV exports run at once on this server; retry in a few seconds.`, {
        headers: { 'Retry-After': '5' },
      });
    }
    this.running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
    };
  }
}
