import { Inject, Injectable, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DelayedError, Job, Queue, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { AppConfig, CONFIG, DATA_SOURCE, REDIS } from '@bhis/config';
import { pgPool } from '@bhis/db';
import { IngestJob, openQueue, QUEUES, startWorker } from '@bhis/queue';
import { downloadPolicyFor, socrataPolicyFor } from './checked-fetch';
import { IngestService, PermanentIngestError, RunCancelledError } from './ingest-service';
import { RunBusyError } from './run-lock';
import { SocrataClient } from './socrata';
import { enqueueScoring, syncSourceCatalog } from '@bhis/runs';
import { refreshAllSources } from './refresh-all';

type IngestSourceJob = Job<Extract<IngestJob, { name: 'ingest-source' }>['data']>;
type RefreshJob = Job<Extract<IngestJob, { name: 'refresh-all' }>['data']>;

/** Consumes the `ingest` queue: one source run per job, or a refresh of every source. */
@Injectable()
export class IngestProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(IngestProcessor.name);
  private worker: Worker | undefined;
  private scoringQueue: Queue | undefined;
  private ingestQueue: Queue | undefined;
  private service!: IngestService;

  constructor(
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const pool = pgPool(this.dataSource);
    await syncSourceCatalog(pool);
    this.service = new IngestService(
      pool,
      new SocrataClient({ baseUrl: this.config.SOCRATA_BASE_URL, appToken: this.config.SOCRATA_APP_TOKEN, policy: socrataPolicyFor(this.config) }),
      {
        urlPolicy: downloadPolicyFor(this.config),
        enforceMinimumRows: this.config.INGEST_ENFORCE_MINIMUM_ROWS,
        split: { minBytes: this.config.INGEST_SPLIT_MIN_BYTES, chunkBytes: this.config.INGEST_SPLIT_CHUNK_BYTES },
        threadHeapMb: this.config.INGEST_THREAD_HEAP_MB,
      },
    );
    this.scoringQueue = openQueue(QUEUES.scoring, this.redis, this.config.REDIS_PREFIX);
    this.ingestQueue = openQueue(QUEUES.ingest, this.redis, this.config.REDIS_PREFIX);
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
      if (scoreAfter && result.status === 'succeeded' && this.scoringQueue) {
        await enqueueScoring(this.scoringQueue, pgPool(this.dataSource), { kind: 'incremental', trigger: 'ingest' });
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
    const pool = pgPool(this.dataSource);
    const results = await refreshAllSources(pool, this.service, { jobId: String(job.id), observedOn: new Date().toISOString().slice(0, 10) });
    if (job.data.scoreAfter && this.scoringQueue) {
      await enqueueScoring(this.scoringQueue, pool, { kind: 'incremental', trigger: 'refresh' });
    }
    return results;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close();
    await this.scoringQueue?.close();
    await this.ingestQueue?.close();
  }
}

@Module({ providers: [IngestProcessor] })
export class IngestWorkerModule {}
