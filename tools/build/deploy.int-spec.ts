import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, freePort, repoRoot, TEST_WEBHOOK_SECRET_KEY, TestDatabase, testRedisPrefix, waitForHealth } from '@bhis/testing';

// The API built by tools/build/build-app.js deploys on its own: its folder, copied away from the
// repository, installs with `npm ci --omit=dev` (from the local npm cache) and serves /health.
describe('a built app deploys on its own', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'bhis-deploy-'));
  const built = path.join(work, 'build');
  const deployed = path.join(work, 'deployed');
  let db: TestDatabase;
  let app: ChildProcess | undefined;
  let output = '';

  beforeAll(async () => {
    db = await createTestDatabase();
    execFileSync(process.execPath, [path.join(repoRoot(), 'tools/build/build-app.js'), 'api', '--out-dir', built], { cwd: repoRoot(), stdio: 'pipe' });
    cpSync(built, deployed, { recursive: true });
    execFileSync('npm', ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: deployed, stdio: 'pipe' });
  }, 300_000);

  afterAll(async () => {
    if (app && app.exitCode === null) {
      app.kill('SIGTERM');
      await once(app, 'exit');
    }
    await db?.drop();
    rmSync(work, { recursive: true, force: true });
  });

  it('holds only the packages the app requires', () => {
    const manifest = JSON.parse(readFileSync(path.join(deployed, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies?: unknown };
    expect(manifest.devDependencies).toBeUndefined();
    expect(Object.keys(manifest.dependencies)).toEqual(expect.arrayContaining(['@nestjs/core', 'pg', 'ioredis', 'swagger-ui-dist']));
    // the CLI's and the tests' packages are not the API's
    for (const absent of ['commander', 'cli-progress', 'jest', 'typescript', 'nx']) {
      expect(manifest.dependencies).not.toHaveProperty(absent);
      expect(existsSync(path.join(deployed, 'node_modules', absent))).toBe(false);
    }
  });

  it('starts from the installed folder and reports healthy', async () => {
    const port = await freePort();
    app = spawn(process.execPath, ['apps/api/src/main.js'], {
      cwd: deployed,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        WEBHOOK_SECRET_KEY: TEST_WEBHOOK_SECRET_KEY,
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
        DATABASE_URL: db.url,
        REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
        REDIS_PREFIX: testRedisPrefix(),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    app.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    app.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    await waitForHealth(`http://127.0.0.1:${port}`, 60_000).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${output.slice(-3000)}`);
    });
    const health = (await (await fetch(`http://127.0.0.1:${port}/api/v1/health`)).json()) as { data: { status: string; checks: Record<string, { status: string }> } };
    expect(health.data.status).toBe('ok');
    expect(health.data.checks.postgres?.status).toBe('up');
    expect(health.data.checks.redis?.status).toBe('up');
  }, 90_000);
});
