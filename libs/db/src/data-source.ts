import { DataSource } from 'typeorm';
import { Pool, type PoolConfig } from 'pg';
import { ApiKeyEntity } from './entities/api-key.entity';
import { MIGRATIONS } from './migrations';

export const ENTITIES = [ApiKeyEntity];

export interface DataSourceOptions {
  url: string;
  poolSize?: number;
  applicationName?: string;
  /**
   * Statement timeout of every connection (ms); 0 for none. The API keeps the default so that no
   * request holds a connection for long; workers run long COPYs and merges and pass 0.
   */
  statementTimeoutMs?: number;
  /**
   * How long a query may wait for a connection (ms), a free slot of the pool included: the API keeps the
   * default and answers 503 rather than queue; workers pass WORKER_CONNECTION_WAIT_MS.
   */
  connectionWaitMs?: number;
}

/**
 * A worker's queries wait for a free connection as long as a statement of the others may take: a
 * scoring part's reads, queued behind the others' on a slow day, failed after 5 s and the whole part
 * was scored again (docs/scaling.md). pg has one timeout for the wait and the connect, so a Postgres
 * that never answers stalls a worker this long before its job fails and is retried.
 */
export const WORKER_CONNECTION_WAIT_MS = 10 * 60_000;

/** The pg pool settings of both ways to reach the database (createDataSource, createPgPool). */
function poolSettings(options: DataSourceOptions): PoolConfig {
  return {
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.connectionWaitMs ?? 5_000,
    idleTimeoutMillis: 30_000,
    // a request's query never holds a connection forever (e.g. during a Postgres restart)
    statement_timeout: options.statementTimeoutMs ?? 60_000,
  };
}

/** The one way to build a TypeORM DataSource: explicit migrations, never `synchronize`. */
export function createDataSource(options: DataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: options.url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    synchronize: false,
    migrationsRun: false,
    logging: false,
    applicationName: options.applicationName ?? 'bhis',
    extra: poolSettings(options),
  });
}

/**
 * A pg pool made from the settings, as the DataSource's would be: what the workers' SQL runs on
 * (COPY streams, set-based merges, raw queries), provided as PG_POOL (libs/config/src/tokens.ts).
 */
export function createPgPool(options: DataSourceOptions): Pool {
  return new Pool({ connectionString: options.url, application_name: options.applicationName ?? 'bhis', ...poolSettings(options) });
}

/** The pg pool under a DataSource, for COPY streams and hot-path raw queries. */
export function pgPool(dataSource: DataSource): Pool {
  return (dataSource.driver as unknown as { master: Pool }).master;
}

/** Raised when the database has not been reached yet; the API maps it to 503 service_unavailable. */
export class DatabaseUnavailableError extends Error {
  /** SQLSTATE class 08: connection exception. */
  readonly code = '08006';
  constructor() {
    super('database connection is not established');
    this.name = 'DatabaseUnavailableError';
  }
}

/** A getter for the pool that fails with DatabaseUnavailableError until the DataSource is initialized. */
export function poolGetter(dataSource: DataSource): () => Pool {
  return () => {
    if (!dataSource.isInitialized) throw new DatabaseUnavailableError();
    return pgPool(dataSource);
  };
}
