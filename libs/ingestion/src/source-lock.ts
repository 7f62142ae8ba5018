import type { Pool } from 'pg';
import { LockBusyError, sessionLock, SessionLock } from '@bhis/db';

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
