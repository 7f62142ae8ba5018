import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { NextFunction, Request, Response } from 'express';
import { ApiKeyStore } from '@bhis/api-platform';
import { AdminQueues } from './admin-queues';

export const QUEUE_DASHBOARD_PATH = '/admin/queues';

/** The key presented as a Bearer token or as the password of HTTP Basic auth (what a browser can send). */
function presentedKey(req: Request): string | null {
  const header = req.get('authorization') ?? '';
  const bearer = /^Bearer\s+(\S+)$/i.exec(header);
  if (bearer) return bearer[1];
  const basic = /^Basic\s+(\S+)$/i.exec(header);
  if (basic) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    return decoded.slice(decoded.indexOf(':') + 1) || null;
  }
  return null;
}

/** Bull Board for operators at /admin/queues: an API key with the `admin` scope is required. */
@Injectable()
export class QueueDashboard implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly queues: AdminQueues,
    @Inject(ApiKeyStore) private readonly keys: ApiKeyStore,
  ) {}

  onModuleInit(): void {
    const serverAdapter = new ExpressAdapter();
    serverAdapter.setBasePath(QUEUE_DASHBOARD_PATH);
    createBullBoard({ queues: this.queues.all().map((q) => new BullMQAdapter(q, { readOnlyMode: false })), serverAdapter });
    const app = this.adapterHost.httpAdapter.getInstance<{ use: (path: string, ...handlers: unknown[]) => void }>();
    app.use(QUEUE_DASHBOARD_PATH, (req: Request, res: Response, next: NextFunction) => void this.authorize(req, res, next), serverAdapter.getRouter());
  }

  private async authorize(req: Request, res: Response, next: NextFunction): Promise<void> {
    const key = presentedKey(req);
    const check = key ? await this.keys.check(key).catch(() => null) : null;
    if (check?.ok && check.key.scopes.includes('admin')) return next();
    res.setHeader('WWW-Authenticate', 'Basic realm="bhis queues", charset="UTF-8"');
    res.status(check === null && key ? 503 : 401).type('text/plain').send('An API key with the admin scope is required (as the Basic auth password).');
  }
}
