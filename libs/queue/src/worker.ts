import { Job, Worker, WorkerOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { JOB_NAMES, JobsByQueue, QueueName } from './contracts';

export type JobHandlers<Q extends QueueName> = {
  /** `token` is the worker's lock token of the job (for moveToDelayed). */
  [N in JobsByQueue[Q]['name']]: (job: Job<Extract<JobsByQueue[Q], { name: N }>['data']>, token?: string) => Promise<unknown>;
};

export interface StartWorkerOptions {
  connection: Redis;
  prefix: string;
  concurrency?: number;
  /** Called when a job fails (after it is recorded by BullMQ); for logging. */
  onFailed?: (job: Job | undefined, error: Error) => void;
  workerOptions?: Partial<WorkerOptions>;
}

/**
 * Starts a BullMQ worker for one queue with one handler per job name. It refuses to start when a job
 * name of the queue has no handler. Handlers throw on failure so BullMQ retries with backoff.
 */
export function startWorker<Q extends QueueName>(queue: Q, handlers: JobHandlers<Q>, options: StartWorkerOptions): Worker {
  const missing = JOB_NAMES[queue].filter((name) => typeof (handlers as Record<string, unknown>)[name] !== 'function');
  if (missing.length > 0) throw new Error(`Worker for queue "${queue}" has no handler for: ${missing.join(', ')}`);
  const worker = new Worker(
    queue,
    async (job: Job, token?: string) => {
      const handler = (handlers as Record<string, (job: Job, token?: string) => Promise<unknown>>)[job.name];
      if (!handler) throw new Error(`Unknown job "${job.name}" on queue "${queue}"`);
      return handler(job, token);
    },
    { connection: options.connection, prefix: options.prefix, concurrency: options.concurrency ?? 1, ...options.workerOptions },
  );
  if (options.onFailed) worker.on('failed', options.onFailed);
  return worker;
}
