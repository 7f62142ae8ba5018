import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { NextFunction, Request, Response } from 'express';
import { platformState } from '@bhis/api-platform';
import { AdminQueues } from './admin-queues';
import { redactJobData, scrubBoardPayload } from './queue-dashboard-redaction';

export const QUEUE_DASHBOARD_PATH = '/admin/queues';

/**
 * The board's JSON routes that are served: the queue list with its jobs and one job. Everything else
 * (Redis INFO, worker client lists, job logs, every action) is 404, and only GET and HEAD pass.
 */
const READABLE_API_ROUTES = [
  /^\/api\/queues$/,
  // a job by id (the board's other routes of this shape name queue views: workers, metrics, ...)
  /^\/api\/queues\/[^/]+\/(?!(?:metrics|default-job-options|workers|rate-limit|job-data-schema|job-schedulers|concurrency|pause|resume|empty|obliterate|promote|add)$)[^/]+$/,
];

/**
 * Bull Board for operators at /admin/queues, read-only: an API key with the `admin` scope is required
 * (Bearer, or the password of HTTP Basic auth, which a browser can send), checked and rate limited by
 * the request pipeline like every API request. Job data, failure reasons and stack traces are
 * redacted (queue-dashboard-redaction.ts), so the board shows no paths, URLs, environment or secrets.
 */
@Injectable()
export class QueueDashboard implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly queues: AdminQueues,
  ) {}

  onModuleInit(): void {
    const serverAdapter = new ExpressAdapter();
    serverAdapter.setBasePath(QUEUE_DASHBOARD_PATH);
    const adapters = this.queues.all().map((q) => {
      const adapter = new BullMQAdapter(q, { readOnlyMode: true, allowRetries: false });
      adapter.setFormatter('data', redactJobData);
      adapter.setFormatter('returnValue', redactJobData);
      return adapter;
    });
    createBullBoard({ queues: adapters, serverAdapter });
    const app = this.adapterHost.httpAdapter.getInstance<{ use: (path: string, ...handlers: unknown[]) => void }>();
    app.use(QUEUE_DASHBOARD_PATH, (req: Request, res: Response, next: NextFunction) => this.guard(req, res, next), serverAdapter.getRouter());
  }

  private guard(req: Request, res: Response, next: NextFunction): void {
    const { auth } = platformState(req);
    if (auth.state !== 'valid' || !auth.key.scopes.includes('admin')) {
      res.setHeader('WWW-Authenticate', 'Basic realm="bhis queues", charset="UTF-8"');
      res.status(401).type('text/plain').send('An API key with the admin scope is required (as the Basic auth password).');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      res.status(405).type('text/plain').send('The queue dashboard is read-only.');
      return;
    }
    if (req.path.startsWith('/api/') && !READABLE_API_ROUTES.some((route) => route.test(req.path))) {
      res.status(404).type('text/plain').send('Not available on this dashboard.');
      return;
    }
    if (req.path.startsWith('/api/')) {
      const json = res.json.bind(res);
      res.json = (body: unknown) => json(scrubBoardPayload(body));
    }
    next();
  }
}
