export * from './building-document';
export * from './producer';
export * from './run-records';
export * from './scoring-run';
export * from './scoring-worker.module';
export * from './validation';
export * from './validation-metrics';
export * from './baselines';
