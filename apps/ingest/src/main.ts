import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { loadConfigOrExit, startOrExit } from '@bhis/config';
import { IngestWorkerModule } from '@bhis/ingestion';
import { bootstrapWorker, WorkerPlatformModule } from '@bhis/worker-platform';

const config = loadConfigOrExit();

@Module({ imports: [WorkerPlatformModule.forRoot(config, 'bhis-ingest'), IngestWorkerModule] })
class IngestAppModule {}

void startOrExit(() => bootstrapWorker({ module: IngestAppModule }));
