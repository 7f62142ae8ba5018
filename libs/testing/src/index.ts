export * from './test-database';
export * from './polling';
export * from './processes';
export * from './repo';
export * from './query-plans';
export * from './test-queue';
