import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import IORedis, { Redis } from 'ioredis';
import type { AppConfig } from '@bhis/config';
import { CONFIG } from '@bhis/api-platform';
import { openQueue, QueueName, QUEUES } from '@bhis/queue';

/** The queues the API produces to (admin triggers) and shows in the dashboard. */
@Injectable()
export class AdminQueues implements OnApplicationShutdown {
  private connection: Redis | undefined;
  private readonly queues = new Map<QueueName, Queue>();

  constructor(@Inject(CONFIG) private readonly config: AppConfig) {}

  get(name: QueueName): Queue {
    this.connection ??= new IORedis(this.config.REDIS_URL, { maxRetriesPerRequest: 1, connectTimeout: 2_000 });
    let queue = this.queues.get(name);
    if (!queue) {
      queue = openQueue(QUEUES[name], this.connection, this.config.REDIS_PREFIX);
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
