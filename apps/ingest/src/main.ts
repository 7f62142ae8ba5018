import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { loadConfigOrExit } from '@bhis/config';
import { IngestWorkerModule } from '@bhis/ingestion';
import { bootstrapWorker, WorkerPlatformModule } from '@bhis/worker-platform';

const config = loadConfigOrExit();

@Module({ imports: [WorkerPlatformModule.forRoot(config, 'bhis-ingest'), IngestWorkerModule] })
class IngestAppModule {}

void bootstrapWorker({ module: IngestAppModule });
