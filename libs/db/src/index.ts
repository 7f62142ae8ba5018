export * from './data-source';
export * from './api-keys';
export * from './copy-text';
export * from './copy-writer';
export * from './database-admin';
export * from './entities/api-key.entity';
export { MIGRATIONS } from './migrations';
export { EVENT_PARTITIONS } from './migrations/1763700100000-data-model';
