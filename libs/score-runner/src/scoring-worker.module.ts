import { Inject, Injectable, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DelayedError, Job, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Pool } from 'pg';
import { AppConfig, CONFIG, PG_POOL, REDIS } from '@bhis/config';
import { LockBusyError, SessionLock } from '@bhis/db';
import { ContractQueue, DEFAULT_JOB_OPTIONS, QUEUES, ScoringJob, startWorker } from '@bhis/queue';
import { closeQueues, queueProvider, queueToken } from '@bhis/worker-platform';
import { checkScoringUse } from '@bhis/scoring';
import { isSourceKey } from '@bhis/sources';
import { enqueueCrossingDispatch } from '@bhis/webhooks';
import { allPartsDone, failPartedRun, finishPartedRun, lockFinish, lockPart, loadPlan, partsPay, planRun, recordPartRetrying, scorePart } from './scoring-parts';
import { runScoring } from './scoring-run';
import { finishScoringRun, markScoringRunning, recordScoringProgress, ScoringCounts } from '@bhis/runs';

type ScoreJob = Job<Extract<ScoringJob, { name: 'score' }>['data']>;
type BackfillJob = Job<Extract<ScoringJob, { name: 'backfill' }>['data']>;
type PartJob = Job<Extract<ScoringJob, { name: 'score-part' }>['data']>;
type FinishJob = Job<Extract<ScoringJob, { name: 'score-finish' }>['data']>;

/** How long a job whose part (or finish) another worker holds waits before it is tried again. */
const BUSY_DELAY_MS = 2_000;

function isLastAttempt(job: Job): boolean {
  return job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Consumes the `scoring` queue: history backfills and incremental runs of given BBLs in one job; full
 * runs, and incremental runs of the buildings marked changed large enough for two parts, split into
 * parts by BBL range that every scoring worker takes (scoring-parts.ts), then finished once.
 */
@Injectable()
export class ScoringProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ScoringProcessor.name);
  private worker: Worker | undefined;

  constructor(
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(queueToken(QUEUES.webhooks)) private readonly webhooks: ContractQueue<'webhooks'>,
    @Inject(queueToken(QUEUES.scoring)) private readonly scoring: ContractQueue<'scoring'>,
  ) {}

  onApplicationBootstrap(): void {
    // every source of the registry is scored or declared unused with a reason; a worker that would skip one silently does not start
    checkScoringUse();
    void this.warnAboutUnknownSources();
    this.worker = startWorker(
      'scoring',
      {
        score: (job) => this.score(job),
        backfill: (job) => this.backfill(job),
        'score-part': (job, token) => this.part(job, token),
        'score-finish': (job, token) => this.finish(job, token),
      },
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
    const { pool } = this;
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

  private async score(job: ScoreJob) {
    const { pool } = this;
    const { runId, kind, asOf, bbls } = job.data;
    if (!bbls?.length && (kind === 'full' || (await partsPay(pool, runId, this.config.SCORING_PARTS)))) return this.plan(job);
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
      if (counts.crossings > 0) await enqueueCrossingDispatch(this.webhooks, runId);
      return counts;
    });
  }

  /** A run in parts: planned once, its parts queued for every worker; the last part done queues the finish. */
  private async plan(job: ScoreJob) {
    const { pool } = this;
    const { runId, kind, asOf } = job.data;
    try {
      if (!(await loadPlan(pool, runId))) await markScoringRunning(pool, runId);
      const plan = await planRun(pool, runId, { kind, asOf, maxParts: this.config.SCORING_PARTS });
      await this.scoring.addBulk(
        Array.from({ length: plan.parts }, (_, part) => ({
          name: 'score-part',
          data: { runId, part },
          opts: { ...DEFAULT_JOB_OPTIONS, jobId: `score-part.${runId}.${part}` },
        })),
      );
      if (await allPartsDone(pool, runId)) await this.queueFinish(runId);
      return { parts: plan.parts, buildings: plan.total };
    } catch (error) {
      await finishScoringRun(pool, runId, { status: isLastAttempt(job) ? 'failed' : 'retrying', error: messageOf(error) });
      throw error;
    }
  }

  private async part(job: PartJob, token?: string) {
    const { pool } = this;
    const { runId, part } = job.data;
    const lock = await this.lockOrDelay(job, token, () => lockPart(pool, runId, part));
    try {
      const outcome = await scorePart(pool, runId, part);
      this.logger.log(`scoring run ${runId}: part ${part} ${outcome}`);
      if (outcome !== 'run-ended' && (await allPartsDone(pool, runId))) await this.queueFinish(runId);
      return { part, outcome };
    } catch (error) {
      if (isLastAttempt(job)) await failPartedRun(pool, runId, `part ${part}: ${messageOf(error)}`);
      else await recordPartRetrying(pool, runId, part, `part ${part}: ${messageOf(error)}`);
      throw error;
    } finally {
      await lock.release();
    }
  }

  private async finish(job: FinishJob, token?: string) {
    const { pool } = this;
    const { runId } = job.data;
    const lock = await this.lockOrDelay(job, token, () => lockFinish(pool, runId));
    try {
      const counts = await finishPartedRun(pool, runId);
      // the portfolio monitors turn the run's grade crossings into webhook deliveries (one job per run, also when retried)
      if (counts.crossings > 0) await enqueueCrossingDispatch(this.webhooks, runId);
      return counts;
    } catch (error) {
      if (isLastAttempt(job)) await failPartedRun(pool, runId, messageOf(error));
      else await finishScoringRun(pool, runId, { status: 'retrying', error: messageOf(error) });
      throw error;
    } finally {
      await lock.release();
    }
  }

  /** Takes a lock, or puts the job back for a while (no attempt used, no worker slot held) when another worker holds it. */
  private async lockOrDelay(job: Job, token: string | undefined, lock: () => Promise<SessionLock>): Promise<SessionLock> {
    try {
      return await lock();
    } catch (error) {
      if (!(error instanceof LockBusyError) || !token) throw error;
      await job.moveToDelayed(Date.now() + BUSY_DELAY_MS, token);
      throw new DelayedError();
    }
  }

  private async queueFinish(runId: string): Promise<void> {
    await this.scoring.add('score-finish', { runId }, { ...DEFAULT_JOB_OPTIONS, jobId: `score-finish.${runId}` });
  }

  /** Scores the city as of past dates into the history only, so a trajectory exists from day one. */
  private backfill(job: BackfillJob) {
    const { pool } = this;
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

  /** Sources the database lists that the registry no longer has: their events are not scored. */
  private async warnAboutUnknownSources(): Promise<void> {
    const { rows } = await this.pool.query<{ key: string }>('SELECT key FROM sources ORDER BY key').catch(() => ({ rows: [] as { key: string }[] }));
    const unknown = rows.map((r) => r.key).filter((key) => !isSourceKey(key));
    if (unknown.length > 0) this.logger.warn(`sources in the database that no source definition has, not scored: ${unknown.join(', ')}`);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close();
  }
}

/**
 * The scoring worker: its processor and the queues it produces into, as providers over the config, pg
 * pool and Redis connection of the platform module (libs/worker-platform); a test replaces any of them
 * (`Test.createTestingModule(...).overrideProvider(queueToken(QUEUES.scoring))`).
 */
@Module({ providers: [queueProvider(QUEUES.webhooks), queueProvider(QUEUES.scoring), ScoringProcessor] })
export class ScoringWorkerModule implements OnApplicationShutdown {
  constructor(
    @Inject(queueToken(QUEUES.webhooks)) private readonly webhooks: ContractQueue<'webhooks'>,
    @Inject(queueToken(QUEUES.scoring)) private readonly scoring: ContractQueue<'scoring'>,
  ) {}

  onApplicationShutdown(): Promise<void> {
    return closeQueues([this.webhooks, this.scoring]);
  }
}
