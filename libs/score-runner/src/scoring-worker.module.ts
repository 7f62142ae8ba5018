import { Inject, Injectable, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Job, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '@bhis/config';
import { pgPool } from '@bhis/db';
import { QUEUES, ScoringJob, startWorker } from '@bhis/queue';
import { enqueueCrossingDispatch } from '@bhis/webhooks';
import { WORKER_CONFIG, WORKER_DATA_SOURCE, WORKER_REDIS } from '@bhis/worker-platform';
import { finishScoringRun, markScoringRunning, recordScoringProgress } from './run-records';
import { runScoring, ScoringCounts } from './scoring-run';

type ScoreJob = Job<Extract<ScoringJob, { name: 'score' }>['data']>;
type BackfillJob = Job<Extract<ScoringJob, { name: 'backfill' }>['data']>;

/** Consumes the `scoring` queue: full and incremental runs, and history backfills. */
@Injectable()
export class ScoringProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ScoringProcessor.name);
  private worker: Worker | undefined;
  private webhooks: Queue | undefined;

  constructor(
    @Inject(WORKER_CONFIG) private readonly config: AppConfig,
    @Inject(WORKER_REDIS) private readonly redis: Redis,
    @Inject(WORKER_DATA_SOURCE) private readonly dataSource: DataSource,
  ) {}

  onApplicationBootstrap(): void {
    this.webhooks = new Queue(QUEUES.webhooks, { connection: this.redis, prefix: this.config.REDIS_PREFIX });
    this.worker = startWorker(
      'scoring',
      { score: (job) => this.score(job), backfill: (job) => this.backfill(job) },
      {
        connection: this.redis,
        prefix: this.config.REDIS_PREFIX,
        onFailed: (job, error) => this.logger.error(`scoring job ${job?.id} failed (attempt ${job?.attemptsMade}): ${error.message}`),
        workerOptions: { lockDuration: this.config.WORKER_LOCK_MS, stalledInterval: this.config.WORKER_LOCK_MS / 2, maxStalledCount: 5 },
      },
    );
    this.logger.log('scoring worker started');
  }

  private async withRun<T extends Record<string, unknown> | ScoringCounts>(job: Job, runId: string, work: () => Promise<T>): Promise<T> {
    const pool = pgPool(this.dataSource);
    await markScoringRunning(pool, runId);
    try {
      const counts = await work();
      await finishScoringRun(pool, runId, { status: 'succeeded', counts });
      return counts;
    } catch (error) {
      const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      await finishScoringRun(pool, runId, { status: last ? 'failed' : 'retrying', error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  }

  private score(job: ScoreJob) {
    const pool = pgPool(this.dataSource);
    const { runId, kind, asOf, bbls } = job.data;
    return this.withRun(job, runId, async () => {
      let lastWrite = 0;
      const counts = await runScoring(pool, {
        runId,
        kind,
        asOf,
        bbls,
        writeCurrent: true,
        onProgress: (progress) => {
          void job.updateProgress(progress).catch(() => undefined);
          if (Date.now() - lastWrite > 1000) {
            lastWrite = Date.now();
            void recordScoringProgress(pool, runId, progress).catch(() => undefined);
          }
        },
      });
      // the portfolio monitors turn the run's grade crossings into webhook deliveries
      if (counts.crossings > 0 && this.webhooks) await enqueueCrossingDispatch(this.webhooks, runId);
      return counts;
    });
  }

  /** Scores the city as of past dates into the history only, so a trajectory exists from day one. */
  private backfill(job: BackfillJob) {
    const pool = pgPool(this.dataSource);
    const { runId, asOfDates } = job.data;
    return this.withRun(job, runId, async () => {
      const perDate: Record<string, number> = {};
      for (const asOf of asOfDates) {
        const counts = await runScoring(pool, { runId, kind: 'full', asOf, writeCurrent: false });
        perDate[asOf] = counts.buildings;
        await job.updateProgress({ done: Object.keys(perDate).length, total: asOfDates.length });
      }
      return { backfilled: perDate };
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close();
    await this.webhooks?.close();
  }
}

@Module({ providers: [ScoringProcessor] })
export class ScoringWorkerModule {}
