import { DelayedError, Job, Worker, WorkerOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Pool } from 'pg';
import { ContractQueue, openQueue, QUEUES, startWorker } from '@bhis/queue';
import { attemptDelivery, DeliveryAttemptOptions } from './delivery-attempt';
import { cancelPendingOfDisabledMonitors, deliveryKeyId, dispatchCrossings, findDueDeliveries } from './outbox';
import { sealStoredSecrets } from './monitor-store';
import { enqueueDeliveries, enqueueDelivery } from './producer';
import { DEFAULT_RETRY_POLICY, RetryPolicy } from './retry-schedule';
import type { SecretBox } from './secret-box';
import type { TargetPolicy } from './webhook-url';

export interface WebhookWorkerLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface WebhookWorkerOptions {
  pool: () => Pool;
  /** A BullMQ worker connection (maxRetriesPerRequest: null). */
  connection: Redis;
  prefix: string;
  allowLoopback: boolean;
  /** Opens the monitors' signing secrets; stored secrets not sealed with its first key are sealed at start. */
  secrets: SecretBox;
  /** Per-attempt HTTP timeout (default 10 s). */
  timeoutMs?: number;
  /** How long an attempt holds its delivery (default timeout + 20 s). */
  lockMs?: number;
  retry?: RetryPolicy;
  /** How often the outbox is re-read for due deliveries without a job (default 30 s). */
  sweepIntervalMs?: number;
  concurrency?: number;
  /** Attempts of one API key's monitors in flight at once in this worker (default 2): one key cannot take every slot. */
  perKeyConcurrency?: number;
  /** How long a delivery of a key at its limit waits before it is tried again (default 1 s). */
  perKeyRetryMs?: number;
  /** DNS resolution (tests only). */
  resolve?: TargetPolicy['resolve'];
  /** BullMQ worker settings (lock and stalled-job intervals). */
  workerOptions?: Partial<WorkerOptions>;
  logger?: WebhookWorkerLogger;
}

const SILENT: WebhookWorkerLogger = { log: () => undefined, warn: () => undefined, error: () => undefined };
const SWEEP_BATCH = 1_000;

/**
 * Consumes the `webhooks` queue: `dispatch-crossings` turns a scoring run's grade crossings into outbox
 * rows, `deliver` makes one attempt at one delivery. On start and then periodically the outbox is swept:
 * every due delivery not held by a live worker is (re)queued under its deterministic job id, so nothing
 * is lost when a worker dies or Redis loses a job, and nothing is queued twice.
 */
export class WebhookWorker {
  private worker: Worker | undefined;
  private queue: ContractQueue<'webhooks'> | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweeping: Promise<number> | undefined;
  private readonly attemptOptions: DeliveryAttemptOptions;
  private readonly logger: WebhookWorkerLogger;
  /** Attempts in flight per API key id. */
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly options: WebhookWorkerOptions) {
    const timeoutMs = options.timeoutMs ?? 10_000;
    this.attemptOptions = {
      timeoutMs,
      lockMs: options.lockMs ?? timeoutMs + 20_000,
      retry: options.retry ?? DEFAULT_RETRY_POLICY,
      target: { allowLoopback: options.allowLoopback, httpsOnly: true, resolve: options.resolve },
      secrets: options.secrets,
    };
    this.logger = options.logger ?? SILENT;
  }

  async start(): Promise<void> {
    const { connection, prefix } = this.options;
    await this.sealSecrets().catch((error: Error) => this.logger.warn(`sealing stored signing secrets failed: ${error.message}`));
    this.queue = openQueue(QUEUES.webhooks, connection, prefix);
    this.worker = startWorker(
      'webhooks',
      {
        'dispatch-crossings': (job) => this.dispatch(job.data.scoringRunId),
        deliver: (job, token) => this.deliverFairly(job, token),
      },
      {
        connection,
        prefix,
        concurrency: this.options.concurrency ?? 8,
        onFailed: (job, error) => this.logger.error(`webhooks job ${job?.id} failed: ${error.message}`),
        workerOptions: this.options.workerOptions,
      },
    );
    await this.sweep().catch((error: Error) => this.logger.warn(`outbox sweep failed: ${error.message}`));
    this.sweepTimer = setInterval(
      () => void this.sweep().catch((error: Error) => this.logger.warn(`outbox sweep failed: ${error.message}`)),
      this.options.sweepIntervalMs ?? 30_000,
    );
    this.sweepTimer.unref();
    this.logger.log('webhook delivery worker started');
  }

  /** Started by Nest once the worker's process is built (webhook-worker.module.ts). */
  onApplicationBootstrap(): Promise<void> {
    return this.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.stop();
  }

  async stop(): Promise<void> {
    clearInterval(this.sweepTimer);
    await this.sweeping?.catch(() => undefined);
    await this.worker?.close();
    await this.queue?.close();
  }

  private async sealSecrets(): Promise<void> {
    const { sealed, unreadable } = await sealStoredSecrets(this.options.pool(), this.options.secrets);
    if (sealed > 0) this.logger.log(`sealed ${sealed} stored signing secrets with the current WEBHOOK_SECRET_KEY`);
    if (unreadable > 0) this.logger.warn(`${unreadable} stored signing secrets open with no configured WEBHOOK_SECRET_KEY; their deliveries fail`);
  }

  /** Re-reads the outbox and queues every due delivery; returns how many were found. */
  sweep(): Promise<number> {
    this.sweeping ??= this.sweepOnce().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  private async sweepOnce(): Promise<number> {
    const pool = this.options.pool();
    await cancelPendingOfDisabledMonitors(pool);
    const due = await findDueDeliveries(pool, SWEEP_BATCH);
    if (this.queue && due.length > 0) await enqueueDeliveries(this.queue, due.map((d) => ({ id: d.id, attempt: d.attempts + 1 })));
    return due.length;
  }

  private async dispatch(scoringRunId: string): Promise<{ deliveries: number }> {
    const ids = await dispatchCrossings(this.options.pool(), scoringRunId);
    if (this.queue) await enqueueDeliveries(this.queue, ids.map((id) => ({ id, attempt: 1 })));
    this.logger.log(`scoring run ${scoringRunId}: ${ids.length} webhook deliveries queued`);
    return { deliveries: ids.length };
  }

  /**
   * Fair delivery: while a key has `perKeyConcurrency` attempts in flight here, its next job waits a
   * moment in the delayed set instead of taking a slot, so a key with a slow endpoint or a burst of
   * events holds at most that many of the worker's slots and every other key's deliveries keep going.
   */
  private async deliverFairly(job: Job<{ deliveryId: string }>, token: string | undefined): Promise<string> {
    const keyId = await deliveryKeyId(this.options.pool(), job.data.deliveryId);
    if (keyId === null) return 'skipped';
    const running = this.inFlight.get(keyId) ?? 0;
    if (running >= (this.options.perKeyConcurrency ?? 2) && token) {
      await job.moveToDelayed(Date.now() + (this.options.perKeyRetryMs ?? 1_000), token);
      throw new DelayedError();
    }
    this.inFlight.set(keyId, running + 1);
    try {
      return await this.deliver(job.data.deliveryId);
    } finally {
      const left = (this.inFlight.get(keyId) ?? 1) - 1;
      if (left > 0) this.inFlight.set(keyId, left);
      else this.inFlight.delete(keyId);
    }
  }

  private async deliver(deliveryId: string): Promise<string> {
    const summary = await attemptDelivery(this.options.pool(), deliveryId, this.attemptOptions);
    if (summary.kind === 'skipped') return 'skipped';
    const { record, attempt } = summary;
    if (record.outcome === 'retry' && this.queue) {
      // if this fails the sweep queues the retry once it is due
      await enqueueDelivery(this.queue, deliveryId, attempt + 1, record.retryInMs).catch((error: Error) =>
        this.logger.warn(`could not queue retry of delivery ${deliveryId}: ${error.message}`),
      );
    }
    if (record.outcome === 'gone') this.logger.warn(`monitor of delivery ${deliveryId} disabled: endpoint answered 410`);
    return record.outcome;
  }
}
