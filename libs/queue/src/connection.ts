import IORedis, { Redis, RedisOptions } from 'ioredis';
import { BulkJobOptions, Job, JobsOptions, Queue } from 'bullmq';
import type { JobData, JobName, JobsByQueue, QueueName } from './contracts';

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

/** One job a queue's contract allows: a job name of the queue with the data of that name. */
export type ContractJob<Q extends QueueName> = { [N in JobName<Q>]: { name: N; data: JobData<Q, N>; opts?: BulkJobOptions } }[JobName<Q>];

type ContractData<Q extends QueueName> = JobsByQueue[Q]['data'];

/**
 * A queue of the service whose `add` and `addBulk` take only the jobs of its contract (contracts.ts),
 * each name with its own data. It is a BullMQ `Queue` for everything else (the dashboard, getters), and
 * a plain `Queue` is still accepted where one is expected (job names typed `string`, as BullMQ has them).
 */
export interface ContractQueue<Q extends QueueName> extends Queue<ContractData<Q>, unknown, string, ContractData<Q>, unknown, string> {
  add<N extends JobName<Q>>(name: N, data: JobData<Q, N>, opts?: JobsOptions): Promise<Job<JobData<Q, N>>>;
  addBulk(jobs: ContractJob<Q>[]): Promise<Job<ContractData<Q>>[]>;
}

/** The one way to open a queue of the service: its name from QUEUES, the deployment's key prefix. */
export function openQueue<Q extends QueueName>(name: Q, connection: Redis, prefix: string): ContractQueue<Q> {
  // the Queue checks nothing of a job: its type is narrowed to the queue's contract here, at its only constructor
  return new Queue(name, { connection, prefix }) as ContractQueue<Q>;
}
