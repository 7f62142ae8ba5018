export * from './bootstrap-worker';
export * from './worker-platform.module';
