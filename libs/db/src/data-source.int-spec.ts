import type { DataSource } from 'typeorm';
import { createDataSource, pgPool, WORKER_CONNECTION_WAIT_MS } from './data-source';

const URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Holds the pool's one connection in a statement of `holdMs`, then queries beside it. */
async function queryBesideHeldConnection(ds: DataSource, holdMs: number): Promise<PromiseSettledResult<unknown>> {
  const pool = pgPool(ds);
  const held = pool.query('SELECT pg_sleep($1::float8 / 1000)', [holdMs]);
  // the held statement has checked out the only connection before the second query asks for one
  await new Promise((resolve) => setTimeout(resolve, 100));
  const [, beside] = await Promise.allSettled([held, pool.query('SELECT 1 AS one')]);
  return beside;
}

describe('createDataSource: the wait for a connection', () => {
  const sources: DataSource[] = [];
  const open = async (connectionWaitMs?: number): Promise<DataSource> => {
    const ds = createDataSource({ url: URL, poolSize: 1, statementTimeoutMs: 0, connectionWaitMs, applicationName: 'bhis-data-source-spec' });
    sources.push(ds);
    return ds.initialize();
  };
  afterAll(() => Promise.all(sources.map((ds) => ds.destroy())));

  it('fails a query that waits longer than its wait for a free connection', async () => {
    const beside = await queryBesideHeldConnection(await open(300), 1_500);
    expect(beside.status).toBe('rejected');
    expect((beside as PromiseRejectedResult).reason.message).toBe('timeout exceeded when trying to connect');
  });

  it("lets a worker's query wait past the API's 5 s while another statement holds the connection", async () => {
    expect(WORKER_CONNECTION_WAIT_MS).toBeGreaterThan(5 * 60_000);
    const beside = await queryBesideHeldConnection(await open(WORKER_CONNECTION_WAIT_MS), 6_000);
    expect(beside).toEqual({ status: 'fulfilled', value: expect.objectContaining({ rows: [{ one: 1 }] }) });
  }, 20_000);

  it('keeps the API default: a query does not wait 6 s for a connection', async () => {
    const beside = await queryBesideHeldConnection(await open(), 6_000);
    expect(beside.status).toBe('rejected');
  }, 20_000);
});
