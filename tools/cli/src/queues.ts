import type { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { ContractQueue, openQueue, QueueName } from '@bhis/queue';
import { CliError, config } from './context';

/** Runs `fn` with the named queues open, and closes them. */
export async function withQueue<Q extends QueueName, T>(name: Q, fn: (queue: ContractQueue<Q>) => Promise<T>): Promise<T> {
  const connection = new IORedis(config().REDIS_URL, { maxRetriesPerRequest: 2, connectTimeout: 3000, lazyConnect: true });
  try {
    await connection.connect();
  } catch (error) {
    connection.disconnect();
    throw new CliError(`Cannot connect to Redis at ${config().REDIS_URL} (${(error as Error).message}).`);
  }
  const queue = openQueue(name, connection, config().REDIS_PREFIX);
  try {
    return await fn(queue);
  } finally {
    await queue.close();
    connection.disconnect();
  }
}

/** Warns on stderr when no worker consumes the queue (the job would wait until one starts). */
export async function warnWithoutWorkers(queue: Queue, startCommand: string): Promise<void> {
  const workers = await queue.getWorkersCount().catch(() => 1);
  if (workers === 0) process.stderr.write(`warning: no worker is consuming "${queue.name}" yet; start one with ${startCommand}\n`);
}
