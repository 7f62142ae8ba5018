import { createApiKey, createDataSource, revokeApiKey } from '@bhis/db';
import { ANNOUNCED_WITHIN_MS, freePort, NodeProcess, poll, waitForHealth } from '@bhis/testing';
import { errorCode } from './http';

export interface RunningApi {
  process: NodeProcess;
  port: number;
  url: string;
}

/** Starts the built API as a process on a free loopback port and waits until it is healthy. */
export async function startApi(env: Record<string, string>, options: { waitHealthy?: boolean } = {}): Promise<RunningApi> {
  const port = await freePort();
  const process = NodeProcess.app('api', { HOST: '127.0.0.1', PORT: String(port), NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env });
  const url = `http://127.0.0.1:${port}`;
  if (options.waitHealthy !== false) {
    await Promise.race([waitForHealth(url), process.died]).catch((error: unknown) => {
      throw new Error(`${error instanceof Error ? error.message : String(error)}\n${process.output.slice(-2000)}`);
    });
  }
  return { process, port, url };
}

export interface TestKey {
  key: string;
  id: string;
  prefix: string;
}

/** Creates a key in the database, as `bhis keys create` does, and returns it in clear. */
export async function createKey(
  databaseUrl: string,
  options: { kind?: 'live' | 'demo'; scopes?: string[]; rateLimitPerMin?: number | null; name?: string } = {},
): Promise<TestKey> {
  const ds = createDataSource({ url: databaseUrl, poolSize: 1 });
  await ds.initialize();
  try {
    const created = await createApiKey(ds, {
      name: options.name ?? 'reliability',
      kind: options.kind ?? 'live',
      scopes: options.scopes,
      rateLimitPerMin: options.rateLimitPerMin ?? null,
    });
    return { key: created.key, id: created.record.id, prefix: created.record.prefix };
  } finally {
    await ds.destroy();
  }
}

export async function revokeKey(databaseUrl: string, id: string): Promise<void> {
  const ds = createDataSource({ url: databaseUrl, poolSize: 1 });
  await ds.initialize();
  try {
    await revokeApiKey(ds, id);
  } finally {
    await ds.destroy();
  }
}

/**
 * Waits until every instance refuses a revoked key, then checks that it keeps refusing it. The
 * revocation reaches each instance as a Postgres notification on its own connection, so a request sent
 * at the moment of the commit may still pass (docs/adr/0006-in-memory-caches.md); returns how long the
 * slowest instance took.
 */
export async function expectRevokedEverywhere(request: (instance: number) => Promise<{ status: number; body: string }>, instances: number): Promise<number> {
  const started = Date.now();
  const refused = async (i: number) => {
    const res = await request(i);
    return res.status === 401 && errorCode(res.body) === 'invalid_api_key';
  };
  // few requests: each one counts against the client address's allowance of invalid keys (30 a minute)
  for (let i = 0; i < instances; i++) await poll(`instance ${i} to refuse the revoked key`, async () => ((await refused(i)) ? true : null), ANNOUNCED_WITHIN_MS, 25);
  const seenAfterMs = Date.now() - started;
  for (let n = 0; n < 3; n++) for (let i = 0; i < instances; i++) expect(await refused(i)).toBe(true);
  return seenAfterMs;
}
