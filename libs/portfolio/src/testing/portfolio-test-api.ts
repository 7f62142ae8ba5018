import type { AddressInfo } from 'node:net';
import { Module } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppConfig, parseConfig } from '@bhis/config';
import { ApiPlatformModule, createApiApp } from '@bhis/api-platform';
import { createApiKey, createDataSource } from '@bhis/db';
import { PortfolioApiModule } from '../portfolio-api.module';

export interface PortfolioTestApi {
  app: NestExpressApplication;
  url: string;
  config: AppConfig;
  close(): Promise<void>;
}

/** The API platform with the portfolio module, on a free port, against the given database and Redis namespace. */
export async function startPortfolioApi(env: Record<string, string>): Promise<PortfolioTestApi> {
  const config = parseConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test', ...env });
  @Module({ imports: [ApiPlatformModule.forRoot(config), PortfolioApiModule] })
  class PortfolioTestModule {}
  const app = await createApiApp(PortfolioTestModule, config);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { app, url: `http://127.0.0.1:${port}`, config, close: () => app.close() };
}

export async function createKeys(databaseUrl: string, specs: { name: string; scopes?: string[]; rateLimitPerMin?: number }[]): Promise<{ key: string; id: string }[]> {
  const ds = createDataSource({ url: databaseUrl, poolSize: 1 });
  await ds.initialize();
  try {
    const keys: { key: string; id: string }[] = [];
    for (const spec of specs) {
      const created = await createApiKey(ds, { name: spec.name, kind: 'live', scopes: spec.scopes, rateLimitPerMin: spec.rateLimitPerMin ?? null });
      keys.push({ key: created.key, id: created.record.id });
    }
    return keys;
  } finally {
    await ds.destroy();
  }
}

export interface ApiCall {
  status: number;
  headers: Headers;
  text: string;
  body: unknown;
}

/** The `data` of a success envelope, as the shape a test expects. */
export function dataOf<T>(res: ApiCall): T {
  return (res.body as { data: T }).data;
}

/** The `error` of an error envelope. */
export function errorOf(res: ApiCall): { code: string; message: string; status: number } {
  return (res.body as { error: { code: string; message: string; status: number } }).error;
}

export async function call(url: string, key: string, method: string, path: string, body?: unknown): Promise<ApiCall> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}
