import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'bullmq';
import Redis from 'ioredis';
import { Pool } from 'pg';
import { openQueue, QUEUES } from '@bhis/queue';
import { createTestDatabase, TestDatabase, testRedisPrefix } from '@bhis/testing';
import { enqueueIngest } from './ingest-producer';

/**
 * A job whose run another worker is executing (one that only stalled) is moved back to the delayed jobs
 * (ingest-worker.module.ts): with a priority it comes back ahead of smaller files queued after it, not behind them.
 */
describe('ingest jobs with a priority', () => {
  let db: TestDatabase;
  let pool: Pool;
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  const prefix = testRedisPrefix();
  const queue = openQueue(QUEUES.ingest, redis, prefix);
  const workerConnection = redis.duplicate();
  const worker = new Worker(QUEUES.ingest, null, { connection: workerConnection, prefix, autorun: false });
  const dir = mkdtempSync(path.join(tmpdir(), 'bhis-priority-'));

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 2 });
  });

  afterAll(async () => {
    await worker.close();
    workerConnection.disconnect();
    await queue.obliterate({ force: true });
    await queue.close();
    redis.disconnect();
    await pool?.end();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const enqueue = async (name: string, source: string, priority?: number) => {
    const file = path.join(dir, name);
    writeFileSync(file, name);
    return (await enqueueIngest(queue, pool, { source, input: { kind: 'file', path: file }, trigger: 'test', priority })).jobId;
  };

  /** Takes the next job as a worker slot would; a busy source's job goes back as the worker sends it back. */
  const take = async (token: string) => {
    const job = await worker.getNextJob(token);
    if (!job?.id) throw new Error('no job');
    return job;
  };

  const delayedThenNext = async (priorities: (number | undefined)[]): Promise<string[]> => {
    await queue.obliterate({ force: true });
    const ids = [
      await enqueue(`311-current-${priorities.join('-')}.csv`, 'nyc311', priorities[0]),
      await enqueue(`311-older-${priorities.join('-')}.csv`, 'nyc311', priorities[1]),
      await enqueue(`litigations-${priorities.join('-')}.csv`, 'hpd_litigations', priorities[2]),
    ];
    const first = await take('slot-1');
    const second = await take('slot-2');
    // the second 311 file: its run is being executed elsewhere, so it waits as a delayed job
    await second.moveToDelayed(Date.now() + 50, 'slot-2');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const next = await take('slot-2');
    return [first.id, second.id, next.id].map((id) => `#${ids.indexOf(id as string)}`);
  };

  it('comes back in its place by size when it has one', async () => {
    expect(await delayedThenNext([1, 2, 3])).toEqual(['#0', '#1', '#1']);
  });

  it('comes back behind the jobs queued after it when it has none', async () => {
    expect(await delayedThenNext([undefined, undefined, undefined])).toEqual(['#0', '#1', '#2']);
  });
});
