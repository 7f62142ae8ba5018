import type { FactoryProvider } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { AppConfig, CONFIG, REDIS } from '@bhis/config';
import { type ContractQueue, openQueue, type QueueName } from '@bhis/queue';

/** The injection token of a queue a worker produces into (`queueProvider`). */
export function queueToken(name: QueueName): string {
  return `bhis:queue:${name}`;
}

/**
 * A queue of the service as a provider of a worker module, on the platform's Redis connection and key
 * prefix (`@Inject(queueToken(name))`). The module that provides it closes it (`closeQueues`), after its
 * processors have closed their BullMQ workers: Nest calls a module's own shutdown hook after its providers'.
 */
export function queueProvider<Q extends QueueName>(name: Q): FactoryProvider<ContractQueue<Q>> {
  return { provide: queueToken(name), inject: [CONFIG, REDIS], useFactory: (config: AppConfig, redis: Redis) => openQueue(name, redis, config.REDIS_PREFIX) };
}

/** Closes the queues a worker module provides, once its workers are closed. */
export async function closeQueues(queues: readonly { close(): Promise<void> }[]): Promise<void> {
  await Promise.all(queues.map((queue) => queue.close()));
}
