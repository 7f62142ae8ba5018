import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { AddressInfo, createServer } from 'node:net';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../../..');
const ENTRY = {
  api: 'dist/apps/api/apps/api/src/main.js',
  ingest: 'dist/apps/ingest/apps/ingest/src/main.js',
  scoring: 'dist/apps/scoring/apps/scoring/src/main.js',
} as const;

export type AppName = keyof typeof ENTRY;

/** One running app process with its captured output. */
export class AppProcess {
  output = '';

  private constructor(
    readonly name: AppName,
    readonly child: ChildProcess,
  ) {
    child.stdout?.on('data', (d: Buffer) => (this.output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (this.output += d.toString()));
  }

  static start(name: AppName, env: Record<string, string>): AppProcess {
    const child = spawn(process.execPath, [path.join(ROOT, ENTRY[name])], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new AppProcess(name, child);
  }

  /** Resolves when the output contains `text` (e.g. "worker started"). */
  async waitFor(text: string | RegExp, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (typeof text === 'string' ? this.output.includes(text) : text.test(this.output)) return;
      if (this.child.exitCode !== null) throw new Error(`${this.name} exited with ${this.child.exitCode}:\n${this.output.slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${this.name} did not print ${String(text)} within ${timeoutMs} ms:\n${this.output.slice(-3000)}`);
  }

  /** SIGKILL: no shutdown hooks, no cleanup, like a crash. */
  get exited(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  async kill9(): Promise<void> {
    if (this.exited) return;
    const exited = once(this.child, 'exit');
    this.child.kill('SIGKILL');
    await exited;
  }

  async stop(): Promise<void> {
    if (this.exited) return;
    const exited = once(this.child, 'exit');
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

export async function waitForHealth(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/api/v1/health`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`API at ${url} not healthy within ${timeoutMs} ms`);
}

export async function poll<T>(what: string, fn: () => Promise<T | null | undefined>, timeoutMs = 120_000, everyMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await fn();
    if (value !== null && value !== undefined) return value;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A port the OS says is free right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}
