import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { openSync, readdirSync, readFileSync } from 'node:fs';
import { AddressInfo, createServer } from 'node:net';
import path from 'node:path';
import { BUILT_ENTRY, repoRoot } from './repo';

const KEEP_OUTPUT_CHARS = 64_000;

export type AppName = 'api' | 'ingest' | 'scoring';

/** A built app (or any node script) running as a child process; keeps the tail of its output. */
/** The WEBHOOK_SECRET_KEY of apps started by tests and benchmarks (a published value: never for a deployment). */
export const TEST_WEBHOOK_SECRET_KEY = '7465737420776562686f6f6b20736563726574206b657920666f722062686973';

export class NodeProcess {
  private tail = '';
  private stopping = false;
  /** Rejects when the process exits without being asked to (a crash, or killed by someone else). */
  readonly died: Promise<never>;

  private constructor(
    readonly label: string,
    readonly child: ChildProcess,
  ) {
    const keep = (d: Buffer): void => {
      this.tail = (this.tail + d.toString()).slice(-KEEP_OUTPUT_CHARS);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.died = new Promise<never>((_resolve, reject) => {
      child.on('exit', (code, signal) => {
        if (!this.stopping) reject(new Error(`${label} (pid ${child.pid}) exited unexpectedly (${code ?? signal}):\n${this.tail.slice(-2000)}`));
      });
    });
    this.died.catch(() => undefined);
  }

  /**
   * A built app; every app of a test or benchmark shares one WEBHOOK_SECRET_KEY unless `env` sets another.
   * `stdoutFile`: where standard output goes instead of the kept tail (a log that would load the parent).
   */
  static app(name: AppName, env: Record<string, string>, stdoutFile?: string): NodeProcess {
    return NodeProcess.script(name, path.join(repoRoot(), BUILT_ENTRY[name]), [], { WEBHOOK_SECRET_KEY: TEST_WEBHOOK_SECRET_KEY, ...env }, stdoutFile);
  }

  static script(label: string, file: string, args: readonly string[], env: Record<string, string>, stdoutFile?: string): NodeProcess {
    const child = spawn(process.execPath, [file, ...args], {
      cwd: repoRoot(),
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', stdoutFile !== undefined ? openSync(stdoutFile, 'w') : 'pipe', 'pipe'],
    });
    return new NodeProcess(label, child);
  }

  get output(): string {
    return this.tail;
  }

  get pid(): number {
    if (this.child.pid === undefined) throw new Error(`${this.label} has no pid`);
    return this.child.pid;
  }

  get exited(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  async waitFor(text: string | RegExp, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (typeof text === 'string' ? this.tail.includes(text) : text.test(this.tail)) return;
      if (this.exited) throw new Error(`${this.label} exited (${this.child.exitCode ?? this.child.signalCode}):\n${this.tail.slice(-3000)}`);
      await sleep(100);
    }
    throw new Error(`${this.label} did not print ${String(text)} within ${timeoutMs} ms:\n${this.tail.slice(-3000)}`);
  }

  /** SIGKILL: no shutdown hooks, no cleanup, like a crash. */
  async kill9(): Promise<void> {
    if (this.exited) return;
    this.stopping = true;
    const exited = once(this.child, 'exit');
    this.child.kill('SIGKILL');
    await exited;
  }

  async stop(): Promise<void> {
    if (this.exited) return;
    this.stopping = true;
    const exited = once(this.child, 'exit');
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function waitForHealth(baseUrl: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${baseUrl}/api/v1/health`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`API at ${baseUrl} not healthy within ${timeoutMs} ms`);
}

/** A loopback port the OS says is free right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

export interface ProcessMemory {
  /** resident set size now, bytes */
  rssBytes: number;
  /** peak resident set size since the process started (VmHWM), bytes */
  peakRssBytes: number;
}

/** VmRSS and VmHWM from /proc/<pid>/status (Linux). */
export function readProcessMemory(pid: number): ProcessMemory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match ? Number(match[1]) * 1024 : 0;
  };
  return { rssBytes: kb('VmRSS'), peakRssBytes: kb('VmHWM') };
}

/** A process and its children (those of a scoring app of several processes), as /proc lists them. */
export function processTree(pid: number): number[] {
  const pids = [pid];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const child of children ? children.split(' ') : []) pids.push(...processTree(Number(child)));
    }
  } catch {
    // the process has exited
  }
  return pids;
}

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces): state is field 3. */
function statFields(pid: number): string[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return [text.slice(0, text.indexOf(' ')), text.slice(text.indexOf('(') + 1, text.lastIndexOf(')')), ...text.slice(text.lastIndexOf(')') + 2).split(' ')];
  } catch {
    return null; // the process has exited
  }
}

/** CPU seconds (user + system) a process has used; with `children`, also those of its children that have exited. */
export function processCpuSeconds(pid: number, children = false): number {
  const f = statFields(pid);
  if (!f) return 0;
  // utime 14, stime 15, cutime 16, cstime 17 (1-based, as in proc(5))
  const ticks = Number(f[13]) + Number(f[14]) + (children ? Number(f[15]) + Number(f[16]) : 0);
  return ticks / TICKS_PER_SECOND;
}

/**
 * CPU seconds used by a local PostgreSQL server so far: the postmaster with its exited children
 * (connections that closed) plus every live child. Differences over an interval give Postgres's share.
 */
export function postgresCpuSeconds(): number {
  const processes = readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);
  const postgres = processes.map((pid) => ({ pid, f: statFields(pid) })).filter((p) => p.f !== null && p.f[1].startsWith('postgres'));
  const pids = new Set(postgres.map((p) => p.pid));
  let seconds = 0;
  for (const { pid, f } of postgres) {
    const parent = Number((f as string[])[3]);
    // the postmaster's parent is not postgres: count its waited-for children too
    seconds += processCpuSeconds(pid, !pids.has(parent));
  }
  return seconds;
}
