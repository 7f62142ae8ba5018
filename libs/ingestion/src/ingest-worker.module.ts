import { Inject, Injectable, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { AppConfig } from '@bhis/config';
import { startWorker } from '@bhis/queue';
import { WORKER_CONFIG, WORKER_REDIS } from '@bhis/worker-platform';

/** Consumes the `ingest` queue. */
@Injectable()
export class IngestProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(IngestProcessor.name);
  private worker: Worker | undefined;

  constructor(
    @Inject(WORKER_CONFIG) private readonly config: AppConfig,
    @Inject(WORKER_REDIS) private readonly redis: Redis,
  ) {}

  onApplicationBootstrap(): void {
    this.worker = startWorker(
      'ingest',
      {
        'ingest-source': async (job) => {
          throw new Error(`ingest of ${job.data.source} is not available in this build`);
        },
        'refresh-all': async () => {
          throw new Error('refresh is not available in this build');
        },
      },
      {
        connection: this.redis,
        prefix: this.config.REDIS_PREFIX,
        onFailed: (job, error) => this.logger.error(`job ${job?.id} failed: ${error.message}`),
      },
    );
    this.logger.log('ingest worker started');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close();
  }
}

@Module({ providers: [IngestProcessor] })
export class IngestWorkerModule {}
