import { Test, type TestingModule } from '@nestjs/testing';
import { Pool } from 'pg';
import { parseConfig } from '@bhis/config';
import { QUEUES } from '@bhis/queue';
import { enqueueScoring } from '@bhis/runs';
import { ScoringWorkerModule } from '@bhis/score-runner';
import { createTestDatabase, TestDatabase, TestQueue, testRedisPrefix } from '@bhis/testing';
import { queueToken, WorkerPlatformModule } from '@bhis/worker-platform';

/**
 * The scoring worker as apps/scoring composes it, on a test database and Redis prefix, the queue it
 * plans parts into replaced through the Nest testing module by one under a prefix no worker reads:
 * the parts a full run is planned into stay there to be looked at.
 */
describe('the scoring worker', () => {
  let db: TestDatabase;
  let pool: Pool;
  let app: TestingModule;
  const scoring = new TestQueue(QUEUES.scoring, testRedisPrefix());
  const { queue, events } = scoring;
  const held = new TestQueue(QUEUES.scoring, `${scoring.prefix}_held`);

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 2 });
    const config = parseConfig({ DATABASE_URL: db.url, REDIS_URL: process.env.REDIS_URL, REDIS_PREFIX: scoring.prefix, LOG_LEVEL: 'silent', WORKER_LOCK_MS: '5000' });
    app = await Test.createTestingModule({ imports: [WorkerPlatformModule.forRoot(config, 'bhis-scoring-test'), ScoringWorkerModule] })
      .overrideProvider(queueToken(QUEUES.scoring))
      .useValue(held.handle())
      .compile();
    await app.init();
    await scoring.ready();
  });

  afterAll(async () => {
    // the module closes the queues it provides, the replaced one too
    await app?.close();
    await scoring.close();
    await held.close();
    await pool?.end();
    await db?.drop();
  });

  it('plans a full run into parts queued on the queue it was given, and the run waits for them', async () => {
    const { runId, jobId } = await enqueueScoring(queue, pool, { kind: 'full', trigger: 'test' });
    const job = await queue.getJob(jobId);
    expect(await job?.waitUntilFinished(events, 20_000)).toEqual({ parts: 1, buildings: 0 });
    const part = await held.queue.getJob(`score-part.${runId}.0`);
    expect(part?.name).toBe('score-part');
    expect(part?.data).toEqual({ runId, part: 0 });
    expect(await queue.getJob(`score-part.${runId}.0`)).toBeUndefined();
    const { rows } = await pool.query<{ status: string }>(`SELECT status FROM scoring_runs WHERE id = $1`, [runId]);
    expect(rows[0].status).toBe('running');
  });
});
