import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { Queue } from 'bullmq';
import IORedis, { Redis } from 'ioredis';
import type { AppConfig } from '@bhis/config';
import { CONFIG } from '@bhis/api-platform';
import { ContractQueue, openQueue, QueueName, QUEUES } from '@bhis/queue';

/** The queues the API produces to (admin triggers) and shows in the dashboard. */
@Injectable()
export class AdminQueues implements OnApplicationShutdown {
  private connection: Redis | undefined;
  private readonly queues = new Map<QueueName, Queue>();

  constructor(@Inject(CONFIG) private readonly config: AppConfig) {}

  get<Q extends QueueName>(name: Q): ContractQueue<Q> {
    this.connection ??= new IORedis(this.config.REDIS_URL, { maxRetriesPerRequest: 1, connectTimeout: 2_000 });
    // a queue is stored under its own name only
    let queue = this.queues.get(name) as ContractQueue<Q> | undefined;
    if (!queue) {
      queue = openQueue(name, this.connection, this.config.REDIS_PREFIX);
      this.queues.set(name, queue);
    }
    return queue;
  }

  all(): Queue[] {
    return (Object.keys(QUEUES) as QueueName[]).map((name) => this.get(name));
  }

  async onApplicationShutdown(): Promise<void> {
    for (const queue of this.queues.values()) await queue.close();
    this.connection?.disconnect();
  }
}
