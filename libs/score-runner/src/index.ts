export * from './building-document';
export * from './scoring-parts';
export * from './scoring-run';
export * from './scoring-worker.module';
export * from './validation';
export * from './validation-metrics';
export * from './baselines';
export * from './calibration';
