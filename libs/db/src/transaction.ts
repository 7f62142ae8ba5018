import type { Pool, PoolClient } from 'pg';

/**
 * Runs `work` in one transaction on a client of the pool: COMMIT when it resolves, ROLLBACK when it
 * throws (the error is passed on); the client goes back to the pool either way.
 */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Runs `work` on a client of the pool without the pool's statement timeout, outside a transaction:
 * for maintenance of a city (index builds, VACUUM) that takes longer than any request may.
 */
export async function withoutTimeout<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('SET statement_timeout = 0');
    const result = await work(client);
    await client.query('RESET statement_timeout');
    return result;
  } finally {
    client.release();
  }
}
