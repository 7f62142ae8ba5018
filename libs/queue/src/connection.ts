import IORedis, { Redis, RedisOptions } from 'ioredis';
import { JobsOptions, Queue } from 'bullmq';
import type { QueueName } from './contracts';

/**
 * A Redis connection for BullMQ workers (blocking commands: no per-request retry limit).
 * Queues used by producers in a request path should fail fast instead: see `producerConnection`.
 */
export function workerConnection(url: string, extra: RedisOptions = {}): Redis {
  return new IORedis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, ...extra });
}

/** A Redis connection that fails fast when Redis is down (HTTP paths must not hang). */
export function producerConnection(url: string, extra: RedisOptions = {}): Redis {
  return new IORedis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2_000,
    ...extra,
  });
}

/** Retries with exponential backoff; finished jobs kept a while for the dashboard, then trimmed. */
export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 5_000 },
  removeOnComplete: { age: 7 * 24 * 3600, count: 1_000 },
  removeOnFail: { age: 30 * 24 * 3600 },
};

/** The one way to open a queue of the service: its name from QUEUES, the deployment's key prefix. */
export function openQueue(name: QueueName, connection: Redis, prefix: string): Queue {
  return new Queue(name, { connection, prefix });
}
