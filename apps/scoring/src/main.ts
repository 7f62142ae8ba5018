import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { loadConfigOrExit, startOrExit } from '@bhis/config';
import { ScoringWorkerModule } from '@bhis/score-runner';
import { WebhookWorkerModule } from '@bhis/webhooks';
import { bootstrapWorker, inProcesses, WorkerPlatformModule } from '@bhis/worker-platform';

const config = loadConfigOrExit();

@Module({
  imports: [
    WorkerPlatformModule.forRoot(config, 'bhis-scoring'),
    ScoringWorkerModule,
    WebhookWorkerModule,
  ],
})
class ScoringAppModule {}

inProcesses(config.SCORING_PROCESSES, () => startOrExit(() => bootstrapWorker({ module: ScoringAppModule })));
