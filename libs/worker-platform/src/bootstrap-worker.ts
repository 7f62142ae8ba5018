import 'reflect-metadata';
import { DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';

/** Starts a worker as a Nest application context (no HTTP server) with graceful shutdown. */
export async function bootstrapWorker(rootModule: DynamicModule): Promise<void> {
  const app = await NestFactory.createApplicationContext(rootModule, { bufferLogs: true });
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
  await app.init();
}
