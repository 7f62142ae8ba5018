import { writeFile } from 'node:fs/promises';

/**
 * Touches a file while the worker is alive and reaches its services, for a container healthcheck
 * (`HEALTHCHECK` in the Dockerfile: the file must be younger than three intervals). A worker has no
 * HTTP server to ask; a check that fails or hangs leaves the file untouched, so it ages.
 */
export class Heartbeat {
  private timer: NodeJS.Timeout | undefined;
  /** Set by stop(): a round still waiting on its checks then leaves the file alone. */
  private stopped = false;
  /** The round under way, which stop() waits for (its write may have begun). */
  private round: Promise<boolean> | undefined;

  constructor(
    private readonly file: string,
    private readonly intervalMs: number,
    private readonly checks: ReadonlyArray<() => Promise<unknown>>,
  ) {}

  start(): void {
    this.stopped = false;
    const beat = (): void => {
      this.round = this.beat();
      void this.round.finally(() => {
        if (this.timer) this.timer = setTimeout(beat, this.intervalMs).unref();
      });
    };
    this.timer = setTimeout(beat, 0).unref();
  }

  /** One round: every check within one interval, then the file's time is now. */
  async beat(): Promise<boolean> {
    const timeout = new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error('heartbeat check timed out')), this.intervalMs).unref());
    try {
      await Promise.race([Promise.all(this.checks.map((check) => check())), timeout]);
      if (this.stopped) return false;
      await writeFile(this.file, `${new Date().toISOString()}\n`);
      return true;
    } catch {
      return false;
    }
  }

  /** Stops beating; resolves once a round under way has ended, so the file is not touched after. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.round;
  }
}
