import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { inTransaction } from '@bhis/db';
import { createTestDatabase, TestDatabase } from '@bhis/testing';
import { emptyCounts } from './ingest-counts';
import { createRun, markRunning, recordRunSucceeded } from './ingest-runs';
import { createScoringRun, markScoringRunning, recordScoringRunSucceeded, ScoringCounts } from './scoring-runs';

/**
 * A load and a scoring run record their success in their own transaction, whose statements may run for
 * minutes (the merge of a file, the switch of the scores): the run ends when that transaction does,
 * not when it began.
 */
describe('run durations', () => {
  let db: TestDatabase;
  let pool: Pool;
  const WORK_MS = 400;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 2 });
  });

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  const timesOf = async (table: 'ingest_runs' | 'scoring_runs', id: string) =>
    (
      await pool.query<{ duration_ms: number; after_start_ms: number }>(
        `SELECT duration_ms, (extract(epoch FROM finished_at - started_at) * 1000)::int AS after_start_ms FROM ${table} WHERE id = $1`,
        [id],
      )
    ).rows[0];

  it('counts the work of the transaction that records an ingest run succeeded', async () => {
    const id = await createRun(pool, { source: 'hpd_violations', trigger: 'cli', input: '/data/hpd_violations.csv' });
    await markRunning(pool, id);
    await inTransaction(pool, async (client) => {
      await client.query(`SELECT pg_sleep(${WORK_MS / 1000})`);
      await recordRunSucceeded(client, id, emptyCounts());
    });
    const times = await timesOf('ingest_runs', id);
    expect(times.duration_ms).toBeGreaterThanOrEqual(WORK_MS);
    expect(times.after_start_ms).toBeGreaterThanOrEqual(WORK_MS);
  });

  it('counts the work of the switch transaction that records a scoring run succeeded', async () => {
    const id = randomUUID();
    await createScoringRun(pool, { id, kind: 'full', asOf: '2026-11-01', trigger: 'cli', jobId: id });
    await markScoringRunning(pool, id);
    const counts: ScoringCounts = { buildings: 0, failed: 0, failures: [], crossings: 0, grades: {}, as_of: '2026-11-01', kind: 'full', write_current: true };
    await inTransaction(pool, async (client) => {
      await client.query(`SELECT pg_sleep(${WORK_MS / 1000})`);
      await recordScoringRunSucceeded(client, id, counts);
    });
    const times = await timesOf('scoring_runs', id);
    expect(times.duration_ms).toBeGreaterThanOrEqual(WORK_MS);
    expect(times.after_start_ms).toBeGreaterThanOrEqual(WORK_MS);
  });
});
