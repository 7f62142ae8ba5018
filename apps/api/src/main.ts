import 'reflect-metadata';
import { loadConfigOrExit, startOrExit } from '@bhis/config';
import { createApiApp } from '@bhis/api-platform';
import { AppModule } from './app.module';

/**
 * Shutdown (Nest's hooks, then the HTTP server's own grace for requests under way,
 * libs/api-platform/src/platform-http-server.ts) ends within this bound whatever hangs.
 */
const SHUTDOWN_BOUND_MS = 15_000;

async function main(): Promise<void> {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => setTimeout(() => process.exit(1), SHUTDOWN_BOUND_MS).unref());
  }
  const config = loadConfigOrExit();
  const app = await createApiApp(AppModule.register(config), config);
  await app.listen(config.PORT, config.HOST);
}

void startOrExit(main);
