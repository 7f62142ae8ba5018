import 'reflect-metadata';
import { DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';

/**
 * Starts a worker as a Nest application context (no HTTP server) with graceful shutdown. An error while
 * the modules are built reaches the caller (startOrExit) instead of Nest's own log-and-exit.
 */
export async function bootstrapWorker(rootModule: DynamicModule): Promise<void> {
  const app = await NestFactory.createApplicationContext(rootModule, { bufferLogs: true, autoFlushLogs: false, abortOnError: false });
  app.useLogger(app.get(Logger));
  app.flushLogs();
  app.enableShutdownHooks();
  await app.init();
}
