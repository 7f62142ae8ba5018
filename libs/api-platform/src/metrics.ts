import type { Request } from 'express';
import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { ChangeListener } from '@bhis/db';
import { platformState, ResponseFinished } from './request-context';

/**
 * Prometheus metrics of the API process: request counts and latency by route and status, and whether
 * the change notifications behind the in-memory caches are received (0: every request reads Postgres).
 */
@Injectable()
export class ApiMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  constructor(changes: ChangeListener) {
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: 'bhis_change_notifications_up',
      help: '1 while the API receives change notifications from Postgres (in-memory caches in use), else 0',
      registers: [this.registry],
      collect() {
        this.set(changes.isLive() ? 1 : 0);
      },
    });
  }

  /** The counter and histogram children of each method, route and status: labels are hashed once, not per request. */
  private readonly series = new Map<string, { count: { inc(): void }; latency: { observe(value: number): void } }>();

  /** Counts a finished request (called by the pipeline once the response is sent). */
  recordRequest: ResponseFinished = (req, res) => {
    const seconds = Number(process.hrtime.bigint() - platformState(req).startedAt) / 1e9;
    const series = this.seriesOf(req.method, routeLabel(req), res.statusCode);
    series.count.inc();
    series.latency.observe(seconds);
  };

  private seriesOf(method: string, route: string, status: number) {
    const id = `${method} ${status} ${route}`;
    let found = this.series.get(id);
    if (!found) {
      const labels = { method, route, status: String(status) };
      found = { count: this.requests.labels(labels), latency: this.latency.labels(labels) };
      this.series.set(id, found);
    }
    return found;
  }
}

function routeLabel(req: Request): string {
  const route = (req as Request & { route?: { path?: string } }).route?.path ?? platformState(req).route;
  if (route) return route;
  return req.path.startsWith('/api/') ? 'unmatched' : 'static';
}
