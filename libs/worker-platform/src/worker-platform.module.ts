import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { LoggerModule } from 'nestjs-pino';
import type { Pool } from 'pg';
import { AppConfig, CONFIG, PG_POOL, REDIS } from '@bhis/config';
import { createPgPool, WORKER_CONNECTION_WAIT_MS } from '@bhis/db';
import { workerConnection } from '@bhis/queue';
import { Heartbeat } from './heartbeat';

const WORKER_HEARTBEAT = Symbol('bhis:worker-heartbeat');
export const HEARTBEAT_INTERVAL_MS = 10_000;

/**
 * What every worker process needs: validated config, the pg pool its SQL runs on (made from the
 * config, reached once before the workers start), a Redis connection for BullMQ and JSON logs.
 * Workers have no HTTP server, and no TypeORM DataSource: migrations run from the CLI.
 */
@Global()
@Module({})
export class WorkerPlatformModule implements OnApplicationShutdown {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(WORKER_HEARTBEAT) private readonly heartbeat: Heartbeat | null,
  ) {}

  static forRoot(config: AppConfig, appName: string): DynamicModule {
    return {
      module: WorkerPlatformModule,
      imports: [LoggerModule.forRoot({ pinoHttp: { level: config.LOG_LEVEL, name: appName }, forRoutes: [] })],
      providers: [
        { provide: CONFIG, useValue: config },
        {
          provide: PG_POOL,
          useFactory: async () => {
            // a whole file is one COPY and one merge: no statement timeout in the workers
            const pool = createPgPool({ url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE, applicationName: appName, statementTimeoutMs: 0, connectionWaitMs: WORKER_CONNECTION_WAIT_MS });
            // a database the worker cannot reach stops it at start, as a bad setting does
            await pool.query('SELECT 1').catch(async (error: unknown) => {
              await pool.end();
              throw error;
            });
            return pool;
          },
        },
        { provide: REDIS, useFactory: () => workerConnection(config.REDIS_URL) },
        {
          provide: WORKER_HEARTBEAT,
          inject: [PG_POOL, REDIS],
          useFactory: (pool: Pool, redis: Redis) => {
            if (!config.WORKER_HEARTBEAT_FILE) return null;
            const heartbeat = new Heartbeat(config.WORKER_HEARTBEAT_FILE, HEARTBEAT_INTERVAL_MS, [() => pool.query('SELECT 1'), () => redis.ping()]);
            heartbeat.start();
            return heartbeat;
          },
        },
      ],
      exports: [CONFIG, PG_POOL, REDIS],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.heartbeat?.stop();
    await this.pool.end();
    this.redis.disconnect();
  }
}
