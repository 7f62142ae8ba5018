/**
 * How long a test waits for a change announced by Postgres to reach the API: the notification
 * travels on the API's own LISTEN connection, so it can trail the committing client by moments on a
 * busy machine (docs/adr/0006-in-memory-caches.md).
 */
export const ANNOUNCED_WITHIN_MS = 2_000;

export async function poll<T>(what: string, fn: () => Promise<T | null | undefined>, timeoutMs = 120_000, everyMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await fn();
    if (value !== null && value !== undefined) return value;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Runs `probe` in a loop until stopped; collects what it returns. */
export class BackgroundProbe<T> {
  readonly results: T[] = [];
  private running = true;
  private readonly loop: Promise<void>;

  constructor(probe: () => Promise<T>, everyMs = 20) {
    this.loop = (async () => {
      while (this.running) {
        this.results.push(await probe());
        await new Promise((r) => setTimeout(r, everyMs));
      }
    })();
  }

  async stop(): Promise<T[]> {
    this.running = false;
    await this.loop;
    return this.results;
  }
}
