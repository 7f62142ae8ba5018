import { Inject, Injectable, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { AppConfig } from '@bhis/config';
import { startWorker } from '@bhis/queue';
import { WORKER_CONFIG, WORKER_REDIS } from '@bhis/worker-platform';

/** Consumes the `scoring` queue. */
@Injectable()
export class ScoringProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ScoringProcessor.name);
  private worker: Worker | undefined;

  constructor(
    @Inject(WORKER_CONFIG) private readonly config: AppConfig,
    @Inject(WORKER_REDIS) private readonly redis: Redis,
  ) {}

  onApplicationBootstrap(): void {
    this.worker = startWorker(
      'scoring',
      {
        score: async (job) => {
          throw new Error(`scoring run ${job.data.runId} is not available in this build`);
        },
        backfill: async () => {
          throw new Error('backfill is not available in this build');
        },
      },
      {
        connection: this.redis,
        prefix: this.config.REDIS_PREFIX,
        onFailed: (job, error) => this.logger.error(`job ${job?.id} failed: ${error.message}`),
      },
    );
    this.logger.log('scoring worker started');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close();
  }
}

@Module({ providers: [ScoringProcessor] })
export class ScoringWorkerModule {}
