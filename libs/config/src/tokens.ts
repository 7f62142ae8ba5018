/**
 * The dependency-injection tokens of what every process provides, API and workers alike (its platform
 * module: libs/api-platform or libs/worker-platform): the validated config, the TypeORM DataSource
 * of the primary, and its Redis connection (in a worker, a BullMQ worker connection).
 */
export const CONFIG = Symbol('bhis:config');
export const DATA_SOURCE = Symbol('bhis:data-source');
export const REDIS = Symbol('bhis:redis');
