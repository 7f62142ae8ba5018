import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { freePort } from '@bhis/testing';

/**
 * A private redis-server on its own loopback port, with the append-only file on and fsynced on every
 * write, in a temp folder: restarting it keeps every acknowledged write. Never the shared 6379.
 */
export class PrivateRedis {
  private child: ChildProcess | null = null;

  private constructor(
    readonly port: number,
    readonly dir: string,
  ) {}

  static async start(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort(), mkdtempSync(path.join(tmpdir(), 'bhis-rel-redis-')));
    await redis.startProcess();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  private async startProcess(): Promise<void> {
    this.child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', '', '--protected-mode', 'yes'],
      { stdio: 'ignore' },
    );
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      const client = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      try {
        await client.connect();
        if ((await client.ping()) === 'PONG') return;
      } catch {
        // not up yet
      } finally {
        client.disconnect();
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`redis-server on port ${this.port} did not start`);
  }

  /** SIGKILL: the crash case. */
  async kill9(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
    this.child = null;
  }

  async restart(): Promise<void> {
    await this.startProcess();
  }

  async stop(): Promise<void> {
    await this.kill9();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
