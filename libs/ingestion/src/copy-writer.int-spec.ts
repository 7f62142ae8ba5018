import { Pool } from 'pg';
import { createTestDatabase, TestDatabase } from '@bhis/testing';
import { CopyWriter } from '@bhis/db';

describe('CopyWriter (real Postgres)', () => {
  let db: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 3 });
    await pool.query('CREATE TABLE copy_target (id integer NOT NULL, note text)');
  });

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  it('streams rows with tabs, newlines and backslashes intact', async () => {
    const writer = await CopyWriter.open(pool, 'copy_target');
    await writer.write([1, 'tab\there, line\nbreak, back\\slash']);
    await writer.write([2, null]);
    await writer.close();
    const { rows } = await pool.query('SELECT id, note FROM copy_target ORDER BY id');
    expect(rows).toEqual([{ id: 1, note: 'tab\there, line\nbreak, back\\slash' }, { id: 2, note: null }]);
  });

  it('turns a statement that fails while the writer is idle into a rejected close, not a crashed process', async () => {
    const writer = await CopyWriter.open(pool, 'copy_target');
    // one chunk (over the flush size) with a NULL in a NOT NULL column: the COPY fails while nothing is
    // being written, as when a slow parse leaves the writer idle
    await writer.write([null, 'bad']);
    for (let i = 0; i < 6_000; i++) await writer.write([i, 'x'.repeat(50)]);
    await new Promise((r) => setTimeout(r, 500));
    await expect(writer.close()).rejects.toThrow(/null value in column "id"/);
    // the pool still works
    expect((await pool.query('SELECT 1 AS ok')).rows[0].ok).toBe(1);
  });

  it('can be aborted after it closed: a load that fails on one table aborts the writers of all its tables', async () => {
    const closed = await CopyWriter.open(pool, 'copy_target');
    await closed.write([3, 'kept']);
    await closed.close();
    expect(() => closed.abort(new Error('another table of the load failed'))).not.toThrow();
    expect((await pool.query('SELECT 1 AS ok')).rows[0].ok).toBe(1);
  });
});
