import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { LoggerModule } from 'nestjs-pino';
import { DataSource } from 'typeorm';
import { AppConfig, CONFIG, DATA_SOURCE, REDIS } from '@bhis/config';
import { createDataSource, WORKER_CONNECTION_WAIT_MS } from '@bhis/db';
import { workerConnection } from '@bhis/queue';
import { Heartbeat } from './heartbeat';

const WORKER_HEARTBEAT = Symbol('bhis:worker-heartbeat');
export const HEARTBEAT_INTERVAL_MS = 10_000;

/**
 * What every worker process needs: validated config, an initialized DataSource, a Redis connection
 * for BullMQ and JSON logs. Workers have no HTTP server.
 */
@Global()
@Module({})
export class WorkerPlatformModule implements OnApplicationShutdown {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
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
          provide: DATA_SOURCE,
          useFactory: async () => {
            // a whole file is one COPY and one merge: no statement timeout in the workers
            const ds = createDataSource({ url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE, applicationName: appName, statementTimeoutMs: 0, connectionWaitMs: WORKER_CONNECTION_WAIT_MS });
            return ds.initialize();
          },
        },
        { provide: REDIS, useFactory: () => workerConnection(config.REDIS_URL) },
        {
          provide: WORKER_HEARTBEAT,
          inject: [DATA_SOURCE, REDIS],
          useFactory: (ds: DataSource, redis: Redis) => {
            if (!config.WORKER_HEARTBEAT_FILE) return null;
            const heartbeat = new Heartbeat(config.WORKER_HEARTBEAT_FILE, HEARTBEAT_INTERVAL_MS, [() => ds.query('SELECT 1'), () => redis.ping()]);
            heartbeat.start();
            return heartbeat;
          },
        },
      ],
      exports: [CONFIG, DATA_SOURCE, REDIS],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.heartbeat?.stop();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    this.redis.disconnect();
  }
}
