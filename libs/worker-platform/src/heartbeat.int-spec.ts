import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import IORedis from 'ioredis';
import { Pool } from 'pg';
import { Heartbeat } from './heartbeat';

describe('Heartbeat', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bhis-heartbeat-'));
  const file = path.join(dir, 'alive');
  const pool = new Pool({ connectionString: process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', max: 1 });
  const redis = new IORedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 0, lazyConnect: true });

  afterAll(async () => {
    await pool.end();
    redis.disconnect();
    rmSync(dir, { recursive: true, force: true });
  });

  it('touches the file while Postgres and Redis answer', async () => {
    const heartbeat = new Heartbeat(file, 1_000, [() => pool.query('SELECT 1'), () => redis.ping()]);
    expect(await heartbeat.beat()).toBe(true);
    const first = statSync(file).mtimeMs;
    await new Promise((r) => setTimeout(r, 20));
    expect(await heartbeat.beat()).toBe(true);
    expect(statSync(file).mtimeMs).toBeGreaterThan(first);
    expect(Date.parse(readFileSync(file, 'utf8').trim())).not.toBeNaN();
  });

  it('leaves the file to age when a service does not answer or a check hangs', async () => {
    const before = statSync(file).mtimeMs;
    const gone = new IORedis('redis://127.0.0.1:1', { maxRetriesPerRequest: 0, lazyConnect: true, retryStrategy: () => null });
    expect(await new Heartbeat(file, 1_000, [() => pool.query('SELECT 1'), () => gone.ping()]).beat()).toBe(false);
    expect(await new Heartbeat(file, 200, [() => new Promise(() => undefined)]).beat()).toBe(false);
    expect(statSync(file).mtimeMs).toBe(before);
    gone.disconnect();
  });

  it('beats on its own once started, and stops', async () => {
    rmSync(file, { force: true });
    const heartbeat = new Heartbeat(file, 100, [() => pool.query('SELECT 1')]);
    heartbeat.start();
    await new Promise((r) => setTimeout(r, 350));
    await heartbeat.stop();
    const last = statSync(file).mtimeMs;
    await new Promise((r) => setTimeout(r, 300));
    expect(statSync(file).mtimeMs).toBe(last);
  });
});
