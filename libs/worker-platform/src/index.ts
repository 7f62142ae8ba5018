export * from './bootstrap-worker';
export * from './process-group';
export * from './worker-platform.module';
export * from './queue-provider';
