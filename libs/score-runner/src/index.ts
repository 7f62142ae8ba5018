export * from './scoring-worker.module';
