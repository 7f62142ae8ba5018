import type { AddressInfo } from 'node:net';
import type { DynamicModule } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppConfig, parseConfig } from '@bhis/config';
import { ApiPlatformModule, createApiApp } from '@bhis/api-platform';
import { createApiKey, createDataSource } from '@bhis/db';
import type { ApiKeyKind } from '@bhis/domain';
import { ReadApiModule } from '../read-api.module';

export interface ReadTestApi {
  app: NestExpressApplication;
  url: string;
  config: AppConfig;
  close(): Promise<void>;
}

/** Boots the API platform with the read endpoints on a free port. */
export async function startReadApi(env: Record<string, string>): Promise<ReadTestApi> {
  const config = parseConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test', ...env });
  const root: DynamicModule = { module: class ReadApiTestModule {}, imports: [ApiPlatformModule.forRoot(config), ReadApiModule] };
  const app = await createApiApp(root, config);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { app, url: `http://127.0.0.1:${port}`, config, close: () => app.close() };
}

/** Creates a key in the database (as the CLI does) and returns it in clear. */
export async function createReadTestKey(
  databaseUrl: string,
  options: { kind?: ApiKeyKind; scopes?: string[]; rateLimitPerMin?: number } = {},
): Promise<string> {
  const ds = createDataSource({ url: databaseUrl, poolSize: 1 });
  await ds.initialize();
  try {
    const created = await createApiKey(ds, {
      name: 'read-api-test',
      kind: options.kind ?? 'live',
      scopes: options.scopes,
      rateLimitPerMin: options.rateLimitPerMin ?? null,
      expiresAt: null,
    });
    return created.key;
  } finally {
    await ds.destroy();
  }
}
