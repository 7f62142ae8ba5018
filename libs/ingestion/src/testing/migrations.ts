import type { Pool } from 'pg';
import { MIGRATIONS } from '@bhis/db';

type Step = 'up' | 'down';
type Migration = Record<Step, (runner: unknown) => Promise<void>>;

/** Runs one step of a migration (by its name) on stored rows, in a transaction of its own, as `bhis db migrate` would. */
export async function runMigrationStep(pool: Pool, name: string, step: Step): Promise<void> {
  const found = MIGRATIONS.find((m) => m.name === name);
  if (!found) throw new Error(`no migration ${name}`);
  const migration = new (found as unknown as new () => Migration)();
  const client = await pool.connect();
  const runner = { query: async (sql: string, values?: unknown[]) => (await client.query(sql, values)).rows };
  try {
    await client.query('BEGIN');
    await migration[step](runner);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}
