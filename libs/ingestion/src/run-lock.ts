import type { Pool } from 'pg';
import { LockBusyError, sessionLocks, SessionLock, sessionLockHeld } from '@bhis/db';

/** Advisory lock class of a run being executed ('bhrl' in ASCII); the object is the run id's hash. */
const RUN_LOCK_CLASS = 0x6268726c;
/** Advisory lock class of a load of a source under way ('bhsl' in ASCII); the object is the source key's hash. */
const SOURCE_LOCK_CLASS = 0x6268736c;

/** Another worker (or another job of this one) is executing the same run. */
export class RunBusyError extends Error {}

/**
 * Takes the locks of one run for its whole load: the run's own, exclusive (a run is never executed
 * twice at once: a job taken over from a worker that only stalled would share its staging tables),
 * and its source's, shared (a load of the source is under way, `sourceLoadUnderWay`). Two runs of one
 * source read and stage their files at once; their merges take turns (the merge lock, load-source.ts),
 * each compared with what the merge before it committed. A worker that dies releases both with its
 * connection. `wait: false` throws RunBusyError at once instead of waiting.
 */
export async function lockRun(pool: Pool, runId: string, source: string, options: { wait: boolean }): Promise<SessionLock> {
  try {
    return await sessionLocks(pool, [{ lockClass: RUN_LOCK_CLASS, key: runId }, { lockClass: SOURCE_LOCK_CLASS, key: source, shared: true }], options);
  } catch (error) {
    if (error instanceof LockBusyError) throw new RunBusyError(`run ${runId} is being executed by another worker`);
    throw error;
  }
}

/**
 * Whether a load of the source is under way: a run of it holds its source lock, on any worker. A
 * worker that dies releases the lock with its connection, so a crashed load is never waited for.
 */
export async function sourceLoadUnderWay(pool: Pool, source: string): Promise<boolean> {
  return sessionLockHeld(pool, SOURCE_LOCK_CLASS, source);
}

/** Waits until no load of the source is under way (polled: waiting must not take the source's lock). */
export async function waitForSourceLoad(pool: Pool, source: string, pollMs = 1000): Promise<void> {
  while (await sourceLoadUnderWay(pool, source)) await new Promise((resolve) => setTimeout(resolve, pollMs));
}
