import { DynamicModule, Inject, Injectable, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '@bhis/config';
import { poolGetter } from '@bhis/db';
import { secretBoxFromConfig } from './secret-box';
import { WebhookWorker } from './webhook-worker';

const CONFIG_TOKEN = Symbol('bhis:webhooks:config');
const DATA_SOURCE_TOKEN = Symbol('bhis:webhooks:data-source');
const REDIS_TOKEN = Symbol('bhis:webhooks:redis');

/** The tokens under which the hosting worker process provides its config, DataSource and Redis. */
export interface WebhookWorkerTokens {
  config: string | symbol;
  dataSource: string | symbol;
  /** A BullMQ worker connection (maxRetriesPerRequest: null). */
  redis: string | symbol;
}

@Injectable()
class WebhookWorkerHost implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('WebhookWorker');
  private worker: WebhookWorker | undefined;

  constructor(
    @Inject(CONFIG_TOKEN) private readonly config: AppConfig,
    @Inject(DATA_SOURCE_TOKEN) private readonly dataSource: DataSource,
    @Inject(REDIS_TOKEN) private readonly redis: Redis,
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
 * Hosts the webhook delivery worker in a worker process. The process provides the connections, e.g.
 * `WebhookWorkerModule.register({ config: WORKER_CONFIG, dataSource: WORKER_DATA_SOURCE, redis: WORKER_REDIS })`.
 */
@Module({})
export class WebhookWorkerModule {
  static register(tokens: WebhookWorkerTokens): DynamicModule {
    return {
      module: WebhookWorkerModule,
      providers: [
        { provide: CONFIG_TOKEN, useExisting: tokens.config },
        { provide: DATA_SOURCE_TOKEN, useExisting: tokens.dataSource },
        { provide: REDIS_TOKEN, useExisting: tokens.redis },
        WebhookWorkerHost,
      ],
    };
  }
}
