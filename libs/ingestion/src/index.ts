export * from './ingest-worker.module';
