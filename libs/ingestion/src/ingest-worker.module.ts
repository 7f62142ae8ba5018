import { Inject, Injectable, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DelayedError, Job, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Pool } from 'pg';
import { AppConfig, CONFIG, PG_POOL, REDIS } from '@bhis/config';
import { type ContractQueue, IngestJob, QUEUES, startWorker } from '@bhis/queue';
import { closeQueues, queueProvider, queueToken } from '@bhis/worker-platform';
import { downloadPolicyFor, socrataPolicyFor } from './checked-fetch';
import { IngestService, PermanentIngestError, RunCancelledError } from './ingest-service';
import { RunBusyError } from './run-lock';
import { SocrataClient } from './socrata';
import { enqueueScoring, syncSourceCatalog } from '@bhis/runs';
import { refreshAllSources } from './refresh-all';

type IngestSourceJob = Job<Extract<IngestJob, { name: 'ingest-source' }>['data']>;
type RefreshJob = Job<Extract<IngestJob, { name: 'refresh-all' }>['data']>;

/**
 * Consumes the `ingest` queue: one source run per job, or a refresh of every source. Its service and
 * pool are injected (IngestWorkerModule); the BullMQ worker is made at bootstrap with the settings of
 * the config (concurrency, lock duration), which BullMQ reads once, in its constructor.
 */
@Injectable()
export class IngestProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(IngestProcessor.name);
  private worker: Worker | undefined;

  constructor(
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly service: IngestService,
    @Inject(queueToken(QUEUES.scoring)) private readonly scoringQueue: ContractQueue<'scoring'>,
    @Inject(queueToken(QUEUES.ingest)) private readonly ingestQueue: ContractQueue<'ingest'>,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await syncSourceCatalog(this.pool);
    if (this.config.REFRESH_ENABLED) {
      await this.ingestQueue.upsertJobScheduler(
        'daily-refresh',
        { pattern: this.config.REFRESH_CRON, tz: 'America/New_York' },
        { name: 'refresh-all', data: { date: 'scheduled', scoreAfter: true } },
      );
    } else {
      await this.ingestQueue.removeJobScheduler('daily-refresh');
    }
    this.worker = startWorker(
      'ingest',
      { 'ingest-source': (job, token) => this.ingestSource(job, token), 'refresh-all': (job) => this.refreshAll(job) },
      {
        connection: this.redis,
        prefix: this.config.REDIS_PREFIX,
        concurrency: this.config.INGEST_CONCURRENCY,
        onFailed: (job, error) => this.logger.error(`ingest job ${job?.id} failed (attempt ${job?.attemptsMade}): ${error.message}`),
        // a long file holds its lock; a killed worker's job is picked up again after this
        workerOptions: { lockDuration: this.config.WORKER_LOCK_MS, stalledInterval: this.config.WORKER_LOCK_MS / 2, maxStalledCount: 5 },
      },
    );
    this.logger.log('ingest worker started');
  }

  /** How long a job whose run another worker is executing waits before it is tried again. */
  private static readonly RUN_BUSY_DELAY_MS = 2_000;

  private async ingestSource(job: IngestSourceJob, token?: string) {
    const { runId, source, input, observedOn, scoreAfter } = job.data;
    const attempts = job.opts.attempts ?? 1;
    try {
      const result = await this.service.run({
        runId,
        source,
        input,
        observedOn,
        lastAttempt: job.attemptsMade + 1 >= attempts,
        waitForRun: false,
        onProgress: (progress) => void job.updateProgress(progress).catch(() => undefined),
      });
      this.logger.log(`ingest run ${runId} (${source}): ${result.status}`);
      if (scoreAfter && result.status === 'succeeded') {
        await enqueueScoring(this.scoringQueue, this.pool, { kind: 'incremental', trigger: 'ingest' });
      }
      return result;
    } catch (error) {
      if (error instanceof PermanentIngestError || error instanceof RunCancelledError) throw new UnrecoverableError(error.message);
      // a worker that only stalled still executes this run: once it ends, the retry finds its outcome
      // (ingest-service.ts); meanwhile this job waits without taking a worker slot or an attempt
      if (error instanceof RunBusyError && token) {
        await job.moveToDelayed(Date.now() + IngestProcessor.RUN_BUSY_DELAY_MS, token);
        throw new DelayedError();
      }
      throw error;
    }
  }

  /** The daily refresh of every source (refresh-all.ts), then one incremental scoring run. */
  private async refreshAll(job: RefreshJob) {
    const results = await refreshAllSources(this.pool, this.service, { jobId: String(job.id), observedOn: new Date().toISOString().slice(0, 10) });
    if (job.data.scoreAfter) {
      await enqueueScoring(this.scoringQueue, this.pool, { kind: 'incremental', trigger: 'refresh' });
    }
    return results;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close();
  }
}

/** The ingest service of a worker, from the config (IngestServiceOptions). */
export function ingestServiceFor(config: AppConfig, pool: Pool, socrata: SocrataClient): IngestService {
  return new IngestService(pool, socrata, {
    urlPolicy: downloadPolicyFor(config),
    enforceMinimumRows: config.INGEST_ENFORCE_MINIMUM_ROWS,
    split: { minBytes: config.INGEST_SPLIT_MIN_BYTES, chunkBytes: config.INGEST_SPLIT_CHUNK_BYTES },
    threadHeapMb: config.INGEST_THREAD_HEAP_MB,
    stagingThreads: config.INGEST_STAGING_THREADS,
  });
}

/**
 * The ingest worker: its processor and the services it runs, as providers over the config, pg pool and
 * Redis connection of the platform module (libs/worker-platform); a test replaces any of them
 * (`Test.createTestingModule(...).overrideProvider(IngestService)`).
 */
@Module({
  providers: [
    {
      provide: SocrataClient,
      inject: [CONFIG],
      useFactory: (config: AppConfig) => new SocrataClient({ baseUrl: config.SOCRATA_BASE_URL, appToken: config.SOCRATA_APP_TOKEN, policy: socrataPolicyFor(config) }),
    },
    { provide: IngestService, inject: [CONFIG, PG_POOL, SocrataClient], useFactory: ingestServiceFor },
    queueProvider(QUEUES.scoring),
    queueProvider(QUEUES.ingest),
    IngestProcessor,
  ],
})
export class IngestWorkerModule implements OnApplicationShutdown {
  constructor(
    @Inject(queueToken(QUEUES.scoring)) private readonly scoringQueue: ContractQueue<'scoring'>,
    @Inject(queueToken(QUEUES.ingest)) private readonly ingestQueue: ContractQueue<'ingest'>,
  ) {}

  onApplicationShutdown(): Promise<void> {
    return closeQueues([this.scoringQueue, this.ingestQueue]);
  }
}
