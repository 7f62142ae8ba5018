import { readFileSync } from 'node:fs';
import { DynamicModule, Type } from '@nestjs/common';
import { HttpAdapterHost, NestFactory, Reflector } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import createExpress from 'express';
import { Logger } from 'nestjs-pino';
import type pino from 'pino';
import type { AppConfig } from '@bhis/config';
import { ApiExceptionFilter } from './exception.filter';
import { hardenHttpServer } from './http-server-limits';
import { SOCKET_POLICY } from './socket-policy';
import { PlatformExpressAdapter } from './platform-http-server';
import { JsonBodyGuard } from './json-body.guard';
import { RequestContextStep } from './request-context.middleware';
import { ScopeGuard } from './scope.guard';
import { PINO_LOGGER } from './tokens';
import { apiValidationPipe } from './validation';

/**
 * Builds the API application: the platform's middleware (request context, CORS, compression, key check,
 * minimum charge: ApiPlatformModule) ahead of the router, the global scope guard, the body read after it
 * (Nest's body parser is off), validation, the one response path (the adapter's `reply`:
 * pagination links, answers that write themselves) and the one exception filter.
 * `rootModule` imports ApiPlatformModule.forRoot(config) and the feature modules.
 */
export async function createApiApp(rootModule: Type<unknown> | DynamicModule, config: AppConfig): Promise<NestExpressApplication> {
  const httpsOptions =
    config.TLS_CERT && config.TLS_KEY
      ? { cert: readFileSync(config.TLS_CERT), key: readFileSync(config.TLS_KEY), minVersion: 'TLSv1.3' as const }
      : undefined;
  // one spelling per route: /API/v1/... and /api/v1/export/csv/ are not routes (404, cost 1), so the
  // rate-limit cost table (route-costs.ts) and the router always agree on the route of a request
  const instance = createExpress();
  instance.set('case sensitive routing', true);
  instance.set('strict routing', true);
  const app = await NestFactory.create<NestExpressApplication>(rootModule, new PlatformExpressAdapter(instance, config.PUBLIC_BASE_URL), {
    bodyParser: false,
    // an error while the modules are built reaches the caller (startOrExit), not Nest's log-and-exit
    bufferLogs: true,
    autoFlushLogs: false,
    abortOnError: false,
    httpsOptions,
  });
  app.useLogger(app.get(Logger));
  app.flushLogs();
  const logger = app.get<pino.Logger>(PINO_LOGGER);

  const express = app.getHttpAdapter().getInstance();
  express.disable('x-powered-by');
  express.set('etag', false); // ETags are computed from the data version by the endpoints that have one
  express.set('trust proxy', config.TRUST_PROXY ?? false);
  express.set('query parser', 'simple');

  // a trusted proxy carries many clients' connections: the per-address cap is not applied to it
  // (with a hop count as TRUST_PROXY every address is trusted, and the proxy must cap connections)
  const trusted = express.get('trust proxy fn') as (address: string, hop: number) => boolean;
  hardenHttpServer(app.getHttpServer(), SOCKET_POLICY, (address) => trusted(address, 0));
  // the body after the scope: the key, the route, its scope and its minimum cost are decided by then
  app.useGlobalGuards(new ScopeGuard(app.get(Reflector)), app.get(JsonBodyGuard));
  app.useGlobalPipes(apiValidationPipe());
  app.useGlobalFilters(new ApiExceptionFilter(app.get(HttpAdapterHost), logger, app.get(RequestContextStep)));
  app.enableShutdownHooks();
  return app;
}
