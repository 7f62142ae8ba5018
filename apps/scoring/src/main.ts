import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { loadConfigOrExit } from '@bhis/config';
import { ScoringWorkerModule } from '@bhis/score-runner';
import { WebhookWorkerModule } from '@bhis/webhooks';
import { bootstrapWorker, WORKER_CONFIG, WORKER_DATA_SOURCE, WORKER_REDIS, WorkerPlatformModule } from '@bhis/worker-platform';

const config = loadConfigOrExit();

@Module({
  imports: [
    WorkerPlatformModule.forRoot(config, 'bhis-scoring'),
    ScoringWorkerModule,
    WebhookWorkerModule.register({ config: WORKER_CONFIG, dataSource: WORKER_DATA_SOURCE, redis: WORKER_REDIS }),
  ],
})
class ScoringAppModule {}

void bootstrapWorker({ module: ScoringAppModule });
