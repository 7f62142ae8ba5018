/**
 * The dependency-injection tokens of what every process provides, API and workers alike (its platform
 * module: libs/api-platform or libs/worker-platform): the validated config, the TypeORM DataSource
 * of the primary (the API), the pg pool of the primary made from the config (the workers), and its
 * Redis connection (in a worker, a BullMQ worker connection).
 */
export const CONFIG = Symbol('bhis:config');
export const DATA_SOURCE = Symbol('bhis:data-source');
export const PG_POOL = Symbol('bhis:pg-pool');
export const REDIS = Symbol('bhis:redis');
