import type { Pool } from 'pg';
import { LockBusyError, sessionLock, SessionLock, sessionLockHeld } from '@bhis/db';

/** Advisory lock class of the per-source load lock ('bhsl' in ASCII); the object is the source key's hash. */
const SOURCE_LOCK_CLASS = 0x6268736c;

/** Another load of the same source holds its lock (on this or another worker). */
export class SourceBusyError extends Error {}

/**
 * Takes the source's load lock for the whole load. Two workers never load the same source at once
 * (a job taken over from a worker that only stalled, a refresh meeting a file load); a worker that
 * dies releases it with its connection. `wait: false` throws SourceBusyError at once instead of waiting.
 */
export async function lockSource(pool: Pool, source: string, options: { wait: boolean }): Promise<SessionLock> {
  try {
    return await sessionLock(pool, SOURCE_LOCK_CLASS, source, options);
  } catch (error) {
    if (error instanceof LockBusyError) throw new SourceBusyError(`${source} is being loaded by another run`);
    throw error;
  }
}

/**
 * Whether a load of the source is under way: its load lock is held, by any worker. A worker that
 * dies releases the lock with its connection, so a crashed load is never waited for.
 */
export async function sourceLoadUnderWay(pool: Pool, source: string): Promise<boolean> {
  return sessionLockHeld(pool, SOURCE_LOCK_CLASS, source);
}

/** Waits until no load of the source is under way (polled: waiting must not take the source's lock). */
export async function waitForSourceLoad(pool: Pool, source: string, pollMs = 1000): Promise<void> {
  while (await sourceLoadUnderWay(pool, source)) await new Promise((resolve) => setTimeout(resolve, pollMs));
}
