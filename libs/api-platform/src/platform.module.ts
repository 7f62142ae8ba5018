import { DynamicModule, Global, Inject, MiddlewareConsumer, Module, NestModule, OnApplicationShutdown, OnModuleInit, RequestMethod } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { LoggerModule } from 'nestjs-pino';
import type { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import type { AppConfig } from '@bhis/config';
import { ChangeListener, createDataSource, poolGetter, ReadReplicas } from '@bhis/db';
import { producerConnection } from '@bhis/queue';
import { ApiKeyStep } from './api-key.middleware';
import { ApiKeyStore } from './api-key-store';
import { CompressionStep } from './compression.middleware';
import { CorsStep } from './cors';
import { IdempotencyPurge } from './idempotency';
import { JsonBodyGuard } from './json-body.guard';
import { BackingServiceIndicators, HealthController } from './health.controller';
import { IndexController } from './index.controller';
import { MetricsController } from './metrics.controller';
import { ApiMetrics } from './metrics';
import { RateLimiter } from './rate-limiter';
import { PlatformMiddleware } from './platform.middleware';
import { RateLimitStep } from './rate-limit.middleware';
import { RequestContextStep } from './request-context.middleware';
import { RequestCharges } from './request-charges';
import { createLogDestination, createLogger } from './logger';
import { CONFIG, DATA_SOURCE, LOG_DESTINATION, PINO_LOGGER, REDIS } from './tokens';

/** Connections and platform services shared by every feature module of the API. */
@Global()
@Module({})
export class ApiPlatformModule implements NestModule, OnModuleInit, OnApplicationShutdown {
  private reconnectTimer: NodeJS.Timeout | undefined;

  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: ApiKeyStore,
    private readonly changes: ChangeListener,
    private readonly replicas: ReadReplicas,
    private readonly limiter: RateLimiter,
  ) {}

  static forRoot(config: AppConfig): DynamicModule {
    const logDestination = createLogDestination();
    const logger = createLogger(config, logDestination);
    return {
      module: ApiPlatformModule,
      // Nest's own logs go through the service's logger; the access log is access-log.ts
      // forRoutes: []: no per-request middleware; it would only bind a request logger no code asks for
      imports: [TerminusModule.forRoot({ logger: false }), LoggerModule.forRoot({ pinoHttp: { logger }, useExisting: true, forRoutes: [] })],
      controllers: [HealthController, IndexController, MetricsController],
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: PINO_LOGGER, useValue: logger },
        { provide: LOG_DESTINATION, useValue: logDestination },
        {
          provide: DATA_SOURCE,
          // not initialized here: the API starts even while Postgres is down, and answers 503 until it is back
          useFactory: () => createDataSource({ url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE, applicationName: 'bhis-api' }),
        },
        { provide: REDIS, useFactory: () => producerConnection(config.REDIS_URL, { lazyConnect: false, enableAutoPipelining: true }) },
        { provide: ChangeListener, useFactory: () => new ChangeListener(config.DATABASE_URL, { applicationName: 'bhis-api-listener' }) },
        {
          provide: ApiKeyStore,
          useFactory: (ds: DataSource, changes: ChangeListener) => new ApiKeyStore(poolGetter(ds), config.KEY_USAGE_FLUSH_MS, changes),
          inject: [DATA_SOURCE, ChangeListener],
        },
        {
          provide: ReadReplicas,
          useFactory: (ds: DataSource, changes: ChangeListener) =>
            new ReadReplicas(poolGetter(ds), config.DATABASE_READ_URL, { poolSize: config.DATABASE_POOL_SIZE, maxLagMs: config.DATABASE_READ_MAX_LAG_MS }, changes),
          inject: [DATA_SOURCE, ChangeListener],
        },
        {
          provide: RateLimiter,
          useFactory: (redis: Redis) => new RateLimiter(redis, config.REDIS_PREFIX),
          inject: [REDIS],
        },
        {
          provide: RequestCharges,
          useFactory: (limiter: RateLimiter) =>
            new RequestCharges(limiter, {
              live: config.RATE_LIMIT_LIVE_PER_MIN,
              demo: config.RATE_LIMIT_DEMO_PER_MIN,
              anonymous: config.RATE_LIMIT_ANONYMOUS_PER_MIN,
              authFailures: config.RATE_LIMIT_AUTH_FAILURES_PER_MIN,
            }),
          inject: [RateLimiter],
        },
        ApiMetrics,
        JsonBodyGuard,
        RequestContextStep,
        CorsStep,
        CompressionStep,
        ApiKeyStep,
        RateLimitStep,
        BackingServiceIndicators,
        IdempotencyPurge,
      ],
      exports: [CONFIG, PINO_LOGGER, LOG_DESTINATION, DATA_SOURCE, REDIS, ApiKeyStore, RateLimiter, RequestCharges, ApiMetrics, ChangeListener, ReadReplicas, JsonBodyGuard, RequestContextStep],
    };
  }

  /**
   * The request pipeline ahead of the router, for every path (docs/adr/0010-request-pipeline-order.md):
   * one middleware (platform.middleware.ts) running the request context, CORS, compression, the key
   * check and the minimum charge in order. The router, the scope guard
   * (scope.guard.ts), then the body (json-body.guard.ts) follow; every error goes through the
   * one exception filter.
   */
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(PlatformMiddleware)
      .forRoutes({ path: '{*path}', method: RequestMethod.ALL });
  }

  async onModuleInit(): Promise<void> {
    // TypeORM builds its pool on initialize(); a refused connection here must not stop the API.
    await this.dataSource.initialize().catch(() => undefined);
    if (!this.dataSource.isInitialized) this.retryInitialize();
    this.keys.start();
    this.limiter.start();
    this.changes.start();
    this.replicas.start();
  }

  private retryInitialize(): void {
    this.reconnectTimer = setInterval(() => {
      if (this.dataSource.isInitialized) return clearInterval(this.reconnectTimer);
      this.dataSource.initialize().then(() => clearInterval(this.reconnectTimer), () => undefined);
    }, 2_000);
    this.reconnectTimer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.reconnectTimer);
    await this.keys.stop();
    await this.limiter.stop();
    await this.changes.stop();
    await this.replicas.stop();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    this.redis.disconnect();
  }
}
