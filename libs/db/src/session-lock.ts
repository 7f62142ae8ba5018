import type { Pool, PoolClient } from 'pg';

/** The lock is held by another session (another worker, or a job of this one). */
export class LockBusyError extends Error {}

export interface SessionLock {
  release(): Promise<void>;
}

/** One advisory lock `(lockClass, hashtext(key))`; a shared one is held beside other shared ones, never beside an exclusive one. */
export interface AdvisoryLock {
  lockClass: number;
  key: string;
  shared?: boolean;
}

/**
 * A session advisory lock `(lockClass, hashtext(key))` on a connection of its own, held until
 * released. A process that dies releases it with its connection, so work guarded by it is never done
 * twice at once and never stays locked after a crash. `wait: false` throws LockBusyError at once.
 */
export function sessionLock(pool: Pool, lockClass: number, key: string, options: { wait: boolean; busyMessage?: string }): Promise<SessionLock> {
  return sessionLocks(pool, [{ lockClass, key }], options);
}

/**
 * Several session advisory locks taken in order on one connection, all held until released (as
 * `sessionLock`). `wait: false` throws LockBusyError at the first one busy, holding none.
 */
export async function sessionLocks(pool: Pool, locks: readonly AdvisoryLock[], options: { wait: boolean; busyMessage?: string }): Promise<SessionLock> {
  const client: PoolClient = await pool.connect();
  const mode = (lock: AdvisoryLock) => (lock.shared ? '_shared' : '');
  const taken: AdvisoryLock[] = [];
  const unlockAll = async () => {
    for (const lock of [...taken].reverse()) await client.query(`SELECT pg_advisory_unlock${mode(lock)}($1, hashtext($2))`, [lock.lockClass, lock.key]);
  };
  try {
    for (const lock of locks) {
      if (options.wait) {
        await client.query(`SELECT pg_advisory_lock${mode(lock)}($1, hashtext($2))`, [lock.lockClass, lock.key]);
      } else {
        const { rows } = await client.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock${mode(lock)}($1, hashtext($2)) AS locked`, [lock.lockClass, lock.key]);
        if (!rows[0]?.locked) throw new LockBusyError(options.busyMessage ?? `${lock.key} is locked by another session`);
      }
      taken.push(lock);
    }
  } catch (error) {
    try {
      await unlockAll();
      client.release();
    } catch (unlockError) {
      client.release(unlockError as Error);
    }
    throw error;
  }
  let released = false;
  return {
    release: async () => {
      if (released) return;
      released = true;
      try {
        await unlockAll();
        client.release();
      } catch (error) {
        // a connection that cannot unlock is closed: its locks go with it
        client.release(error as Error);
      }
    },
  };
}

/** Whether any session of this database holds the lock `(lockClass, hashtext(key))` (pg_locks shows a key as unsigned). */
export async function sessionLockHeld(pool: Pool, lockClass: number, key: string): Promise<boolean> {
  const { rows } = await pool.query<{ held: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2
                      AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                      AND classid::bigint = $1 AND objid::bigint = (hashtext($2)::bigint & 4294967295)) AS held`,
    [lockClass, key],
  );
  return rows[0].held;
}
