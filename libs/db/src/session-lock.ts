import type { Pool, PoolClient } from 'pg';

/** The lock is held by another session (another worker, or a job of this one). */
export class LockBusyError extends Error {}

export interface SessionLock {
  release(): Promise<void>;
}

/**
 * A session advisory lock `(lockClass, hashtext(key))` on a connection of its own, held until
 * released. A process that dies releases it with its connection, so work guarded by it is never done
 * twice at once and never stays locked after a crash. `wait: false` throws LockBusyError at once.
 */
export async function sessionLock(pool: Pool, lockClass: number, key: string, options: { wait: boolean; busyMessage?: string }): Promise<SessionLock> {
  const client: PoolClient = await pool.connect();
  try {
    if (options.wait) {
      await client.query(`SELECT pg_advisory_lock($1, hashtext($2))`, [lockClass, key]);
    } else {
      const { rows } = await client.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked`, [lockClass, key]);
      if (!rows[0]?.locked) throw new LockBusyError(options.busyMessage ?? `${key} is locked by another session`);
    }
  } catch (error) {
    client.release();
    throw error;
  }
  let released = false;
  return {
    release: async () => {
      if (released) return;
      released = true;
      try {
        await client.query(`SELECT pg_advisory_unlock($1, hashtext($2))`, [lockClass, key]);
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
