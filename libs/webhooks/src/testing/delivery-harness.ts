import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { WorkerOptions } from 'bullmq';
import { Webhook } from 'standardwebhooks';

export interface TestWorkerSettings {
  databaseUrl: string;
  redisUrl: string;
  prefix: string;
  timeoutMs: number;
  lockMs: number;
  retryDelaysMs: number[];
  sweepIntervalMs: number;
  workerOptions: Partial<WorkerOptions>;
  /** The WEBHOOK_SECRET_KEY of the worker, as 64 hex digits. */
  secretKeyHex: string;
}

export interface ReceivedWebhook {
  path: string;
  webhookId: string;
  body: string;
  headers: Record<string, string>;
  json: { type: string; timestamp: string; data: Record<string, unknown> };
  verified: boolean;
  receivedAt: number;
  /** The status answered, or null when the request was held and never answered. */
  answered: number | null;
}

export type Reply = { status: number; headers?: Record<string, string> } | 'hang';

/**
 * A real webhook receiver on 127.0.0.1: verifies every request's Standard Webhooks signature with the
 * secret registered for its path and answers what `reply` says (or holds the request open).
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly secrets = new Map<string, string>();
  private readonly held = new Set<http.ServerResponse>();
  private server: http.Server | undefined;
  reply: (hook: ReceivedWebhook, seenBefore: number) => Reply = () => ({ status: 204 });
  port = 0;

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
        const path = req.url ?? '/';
        let verified = false;
        let json = { type: '', timestamp: '', data: {} } as ReceivedWebhook['json'];
        try {
          json = new Webhook(this.secrets.get(path) ?? 'whsec_AAAA').verify(body, headers) as ReceivedWebhook['json'];
          verified = true;
        } catch {
          verified = false;
        }
        const hook: ReceivedWebhook = { path, webhookId: headers['webhook-id'], body, headers, json, verified, receivedAt: Date.now(), answered: null };
        const seenBefore = this.received.filter((r) => r.webhookId === hook.webhookId).length;
        this.received.push(hook);
        const reply = this.reply(hook, seenBefore);
        if (reply === 'hang') {
          this.held.add(res);
          return;
        }
        hook.answered = reply.status;
        res.writeHead(reply.status, reply.headers ?? {});
        res.end();
      });
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.port = (this.server.address() as AddressInfo).port;
  }

  url(path: string, secretHolder?: { secret: string }): string {
    if (secretHolder) this.secrets.set(path, secretHolder.secret);
    return `http://127.0.0.1:${this.port}${path}`;
  }

  secretFor(path: string): string {
    const secret = this.secrets.get(path);
    if (!secret) throw new Error(`no secret was set for ${path}`);
    return secret;
  }

  setSecret(path: string, secret: string): void {
    this.secrets.set(path, secret);
  }

  /** Requests answered 2xx per webhook id. */
  acknowledged(path: string): Map<string, ReceivedWebhook[]> {
    const byId = new Map<string, ReceivedWebhook[]>();
    for (const r of this.received) {
      if (r.path !== path || r.answered === null || r.answered < 200 || r.answered >= 300) continue;
      byId.set(r.webhookId, [...(byId.get(r.webhookId) ?? []), r]);
    }
    return byId;
  }

  forPath(path: string): ReceivedWebhook[] {
    return this.received.filter((r) => r.path === path);
  }

  async stop(): Promise<void> {
    for (const res of this.held) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

/** Starts the delivery worker in a child process and resolves once it runs. */
export async function startWorkerProcess(settings: TestWorkerSettings): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-r', path.resolve(__dirname, '../../../../tools/jest/register-ts.js'), path.join(__dirname, 'worker-process.ts')], {
    env: { ...process.env, WEBHOOK_WORKER_SETTINGS: JSON.stringify(settings) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (c: Buffer) => {
      if (c.toString().includes('ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker process exited (${code}): ${stderr}`)));
  });
  return child;
}

export async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
