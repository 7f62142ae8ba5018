import type { AddressInfo } from 'node:net';
import type { DynamicModule, Type } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppConfig, parseConfig } from '@bhis/config';
import { createApiApp } from '@bhis/api-platform';
import { createApiKey, createDataSource } from '@bhis/db';
import type { ApiKeyKind } from '@bhis/domain';
import { AppModule } from '../app.module';

export interface TestApi {
  app: NestExpressApplication;
  url: string;
  config: AppConfig;
  close(): Promise<void>;
}

/** Boots the real API app on a free port against the given database and Redis namespace. */
export async function startTestApi(
  env: Record<string, string>,
  extraModules: (Type<unknown> | DynamicModule)[] = [],
): Promise<TestApi> {
  const config = parseConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test', ...env });
  const root: DynamicModule = { module: class TestRootModule {}, imports: [AppModule.register(config), ...extraModules] };
  const app = await createApiApp(root, config);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { app, url: `http://127.0.0.1:${port}`, config, close: () => app.close() };
}

/** Creates a key directly in the database (as the CLI does) and returns it in clear. */
export async function createTestKey(
  databaseUrl: string,
  options: { kind?: ApiKeyKind; scopes?: string[]; rateLimitPerMin?: number; expiresAt?: Date; name?: string } = {},
): Promise<{ key: string; id: string; prefix: string }> {
  const ds = createDataSource({ url: databaseUrl, poolSize: 1 });
  await ds.initialize();
  try {
    const created = await createApiKey(ds, {
      name: options.name ?? 'test',
      kind: options.kind ?? 'live',
      scopes: options.scopes,
      rateLimitPerMin: options.rateLimitPerMin ?? null,
      expiresAt: options.expiresAt ?? null,
    });
    return { key: created.key, id: created.record.id, prefix: created.record.prefix };
  } finally {
    await ds.destroy();
  }
}
