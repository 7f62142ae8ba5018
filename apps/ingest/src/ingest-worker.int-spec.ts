import { Test, type TestingModule } from '@nestjs/testing';
import { Pool } from 'pg';
import { parseConfig } from '@bhis/config';
import { IngestService, IngestWorkerModule, PermanentIngestError, RunBusyError, type RunRequest, type RunResult } from '@bhis/ingestion';
import { DEFAULT_JOB_OPTIONS, QUEUES } from '@bhis/queue';
import { createRun } from '@bhis/runs';
import { createTestDatabase, TestDatabase, TestQueue, testRedisPrefix } from '@bhis/testing';
import { WorkerPlatformModule } from '@bhis/worker-platform';

/**
 * The ingest worker as apps/ingest composes it, on a test database and Redis prefix, its ingest service
 * replaced through the Nest testing module: what the processor does with a run's outcome.
 */
describe('the ingest worker', () => {
  let db: TestDatabase;
  let pool: Pool;
  let app: TestingModule;
  const ingest = new TestQueue(QUEUES.ingest, testRedisPrefix());
  const { queue, events } = ingest;
  /** What the replaced service answers, per call. */
  const outcomes: (() => Promise<RunResult>)[] = [];
  const calls: RunRequest[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 2 });
    const config = parseConfig({ DATABASE_URL: db.url, REDIS_URL: process.env.REDIS_URL, REDIS_PREFIX: ingest.prefix, LOG_LEVEL: 'silent', WORKER_LOCK_MS: '5000' });
    app = await Test.createTestingModule({ imports: [WorkerPlatformModule.forRoot(config, 'bhis-ingest-test'), IngestWorkerModule] })
      .overrideProvider(IngestService)
      .useValue({
        run: (request: RunRequest) => {
          calls.push(request);
          return (outcomes.shift() ?? (() => Promise.reject(new Error('no outcome left'))))();
        },
      })
      .compile();
    await app.init();
    await ingest.ready();
  });

  afterAll(async () => {
    await app?.close();
    await ingest.close();
    await pool?.end();
    await db?.drop();
  });

  const enqueue = async () => {
    const runId = await createRun(pool, { source: 'hpd_violations', trigger: 'test', input: '/nowhere.csv' });
    const job = await queue.add('ingest-source', { runId, source: 'hpd_violations', input: { kind: 'file', path: '/nowhere.csv' }, observedOn: '2026-11-01' }, { ...DEFAULT_JOB_OPTIONS, backoff: { type: 'fixed', delay: 10 } });
    return { runId, job };
  };

  it('fails a run that cannot succeed at its first attempt, without retrying it', async () => {
    outcomes.push(() => Promise.reject(new PermanentIngestError('the file is not there')));
    const { job } = await enqueue();
    await expect(job.waitUntilFinished(events, 20_000)).rejects.toThrow('the file is not there');
    const failed = await queue.getJob(String(job.id));
    expect(failed?.attemptsMade).toBe(1);
    expect(calls.at(-1)?.lastAttempt).toBe(false);
  });

  it('puts back a job whose run another worker executes, without using an attempt, and runs it once that run is free', async () => {
    outcomes.push(() => Promise.reject(new RunBusyError('another worker holds the run')), () => Promise.resolve({ status: 'skipped', reason: 'done by the other worker' }));
    const before = calls.length;
    const { job } = await enqueue();
    expect(await job.waitUntilFinished(events, 20_000)).toEqual({ status: 'skipped', reason: 'done by the other worker' });
    expect(calls.length - before).toBe(2);
    expect((await queue.getJob(String(job.id)))?.attemptsMade).toBe(1);
  });
});
