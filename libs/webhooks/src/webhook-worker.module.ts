import { Inject, Injectable, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { AppConfig, CONFIG, DATA_SOURCE, REDIS } from '@bhis/config';
import { poolGetter } from '@bhis/db';
import { secretBoxFromConfig } from './secret-box';
import { WebhookWorker } from './webhook-worker';


@Injectable()
class WebhookWorkerHost implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('WebhookWorker');
  private worker: WebhookWorker | undefined;

  constructor(
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.worker = new WebhookWorker({
      pool: poolGetter(this.dataSource),
      connection: this.redis,
      prefix: this.config.REDIS_PREFIX,
      allowLoopback: this.config.WEBHOOK_ALLOW_LOOPBACK,
      secrets: secretBoxFromConfig(this.config, (m) => this.logger.warn(m)),
      workerOptions: { lockDuration: this.config.WORKER_LOCK_MS },
      logger: { log: (m) => this.logger.log(m), warn: (m) => this.logger.warn(m), error: (m) => this.logger.error(m) },
    });
    await this.worker.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.stop();
  }
}

/**
 * Hosts the webhook delivery worker in a worker process, from the config, DataSource and Redis worker
 * connection its platform module provides (libs/config/src/tokens.ts).
 */
@Module({ providers: [WebhookWorkerHost] })
export class WebhookWorkerModule {}
