import { readFileSync } from 'node:fs';
import { DynamicModule, Type } from '@nestjs/common';
import { HttpAdapterHost, NestFactory, Reflector } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import type pino from 'pino';
import type { AppConfig } from '@bhis/config';
import { accessLog } from './access-log';
import { ApiKeyStore } from './api-key-store';
import { ApiExceptionFilter } from './exception.filter';
import { ApiMetrics } from './metrics';
import { installPipeline } from './pipeline';
import { RateLimiter } from './rate-limiter';
import { ScopeGuard } from './scope.guard';
import { PINO_LOGGER } from './tokens';
import { apiValidationPipe } from './validation';

/**
 * Builds the API application: Express pipeline (request id, logging, metrics, body parsing, key check,
 * rate limits) ahead of the Nest router, the global scope guard, validation and exception filter.
 * `rootModule` imports ApiPlatformModule.forRoot(config) and the feature modules.
 */
export async function createApiApp(rootModule: Type<unknown> | DynamicModule, config: AppConfig): Promise<NestExpressApplication> {
  const httpsOptions =
    config.TLS_CERT && config.TLS_KEY
      ? { cert: readFileSync(config.TLS_CERT), key: readFileSync(config.TLS_KEY), minVersion: 'TLSv1.3' as const }
      : undefined;
  const app = await NestFactory.create<NestExpressApplication>(rootModule, {
    bodyParser: false,
    bufferLogs: true,
    httpsOptions,
  });
  app.useLogger(app.get(Logger));
  const logger = app.get<pino.Logger>(PINO_LOGGER);

  const express = app.getHttpAdapter().getInstance();
  express.disable('x-powered-by');
  express.set('etag', false); // ETags are computed from the data version by the endpoints that have one
  express.set('trust proxy', config.TRUST_PROXY ?? false);
  express.set('query parser', 'simple');

  installPipeline(express, {
    keys: app.get(ApiKeyStore),
    limiter: app.get(RateLimiter),
    limits: {
      live: config.RATE_LIMIT_LIVE_PER_MIN,
      demo: config.RATE_LIMIT_DEMO_PER_MIN,
      anonymous: config.RATE_LIMIT_ANONYMOUS_PER_MIN,
    },
    before: [accessLog(logger), app.get(ApiMetrics).middleware],
  });

  app.useGlobalGuards(new ScopeGuard(app.get(Reflector)));
  app.useGlobalPipes(apiValidationPipe());
  app.useGlobalFilters(new ApiExceptionFilter(app.get(HttpAdapterHost), logger));
  app.enableShutdownHooks();
  return app;
}
