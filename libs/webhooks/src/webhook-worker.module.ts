import { Logger, Module } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { Pool } from 'pg';
import { AppConfig, CONFIG, PG_POOL, REDIS } from '@bhis/config';
import { SecretBox, secretBoxFromConfig } from './secret-box';
import { WebhookWorker } from './webhook-worker';

const logger = new Logger('WebhookWorker');

/** The delivery worker of a worker process, from the config, pg pool and Redis worker connection of its platform module. */
function webhookWorkerFor(config: AppConfig, pool: Pool, redis: Redis, secrets: SecretBox): WebhookWorker {
  return new WebhookWorker({
    pool: () => pool,
    connection: redis,
    prefix: config.REDIS_PREFIX,
    allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK,
    secrets,
    workerOptions: { lockDuration: config.WORKER_LOCK_MS },
    logger: { log: (m) => logger.log(m), warn: (m) => logger.warn(m), error: (m) => logger.error(m) },
  });
}

/**
 * Hosts the webhook delivery worker in a worker process (libs/config/src/tokens.ts): the worker and
 * the secret box that opens the monitors' signing secrets are providers, the worker starting at
 * bootstrap and stopping at shutdown; a test replaces either (`overrideProvider(SecretBox)`).
 */
@Module({
  providers: [
    { provide: SecretBox, inject: [CONFIG], useFactory: (config: AppConfig) => secretBoxFromConfig(config, (m) => logger.warn(m)) },
    { provide: WebhookWorker, inject: [CONFIG, PG_POOL, REDIS, SecretBox], useFactory: webhookWorkerFor },
  ],
})
export class WebhookWorkerModule {}
