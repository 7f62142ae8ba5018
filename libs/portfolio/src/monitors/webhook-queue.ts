import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { AppConfig } from '@bhis/config';
import { CONFIG, REDIS } from '@bhis/api-platform';
import { ContractQueue, openQueue, QUEUES } from '@bhis/queue';

/** The `webhooks` queue as the API produces to it (created on first use). */
@Injectable()
export class WebhookQueue implements OnApplicationShutdown {
  private queue: ContractQueue<'webhooks'> | undefined;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  get(): ContractQueue<'webhooks'> {
    this.queue ??= openQueue(QUEUES.webhooks, this.redis, this.config.REDIS_PREFIX);
    return this.queue;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue?.close().catch(() => undefined);
  }
}
