import { Client, Pool } from 'pg';
import { vacuumAfterLoad } from './vacuum-after-load';

const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE = `bhis_vacuum_spec_${process.pid}`;
const url = (): string => {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${DATABASE}`;
  return u.toString();
};

/** Runs statements on a connection of its own, closed after: closing flushes its table statistics. */
async function run(...statements: string[]): Promise<void> {
  const client = new Client({ connectionString: url() });
  await client.connect();
  try {
    for (const sql of statements) await client.query(sql);
  } finally {
    await client.end();
  }
}

describe('vacuumAfterLoad', () => {
  const admin = new Pool({ connectionString: ADMIN_URL, max: 1 });
  let pool: Pool;

  beforeAll(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${DATABASE}`);
    await admin.query(`CREATE DATABASE ${DATABASE}`);
    pool = new Pool({ connectionString: url(), max: 2 });
    // autovacuum must not clean up before the function does (it may be on where this runs)
    await run(
      `CREATE TABLE rewritten (id int PRIMARY KEY, owner text) WITH (autovacuum_enabled = false)`,
      `CREATE TABLE touched (id int PRIMARY KEY, owner text) WITH (autovacuum_enabled = false)`,
      `INSERT INTO rewritten SELECT i, 'pluto' FROM generate_series(1, 5000) i`,
      `INSERT INTO touched SELECT i, 'pluto' FROM generate_series(1, 5000) i`,
    );
  });
  afterAll(async () => {
    await pool.end();
    await admin.query(`DROP DATABASE IF EXISTS ${DATABASE}`);
    await admin.end();
  });

  const deadRows = async (table: string): Promise<number> =>
    Number((await pool.query<{ n: string }>(`SELECT n_dead_tup AS n FROM pg_stat_user_tables WHERE relname = $1`, [table])).rows[0].n);

  it('vacuums and analyzes the tables a load rewrote, and leaves those it barely touched', async () => {
    // every row rewritten twice (as a first load sets a building's owner after its facts); 1% of the other
    await run(`UPDATE rewritten SET owner = 'hpd'`, `UPDATE rewritten SET owner = 'registration'`, `UPDATE touched SET owner = 'hpd' WHERE id <= 50`);
    expect(await deadRows('rewritten')).toBe(10_000);

    const vacuumed = await vacuumAfterLoad(pool);

    expect(vacuumed.tables).toEqual([{ table: 'public.rewritten', deadRows: 10_000 }]);
    const { rows } = await pool.query<{ relname: string; dead: string; vacuumed: boolean; analyzed: boolean }>(
      `SELECT relname, n_dead_tup AS dead, last_vacuum IS NOT NULL AS vacuumed, last_analyze IS NOT NULL AS analyzed
         FROM pg_stat_user_tables ORDER BY relname`,
    );
    expect(rows).toEqual([
      { relname: 'rewritten', dead: '0', vacuumed: true, analyzed: true },
      { relname: 'touched', dead: '50', vacuumed: false, analyzed: false },
    ]);
  });

  it('does nothing when no table has many dead rows', async () => {
    expect((await vacuumAfterLoad(pool)).tables).toEqual([]);
  });
});
