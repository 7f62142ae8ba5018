import type { Request } from 'express';
import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Metric, Registry, collectDefaultMetrics } from 'prom-client';
import { ChangeListener } from '@bhis/db';
import { platformState, ResponseFinished } from './request-context';

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

type SeriesLabels = { method: string; route: string; status: string };

/** The requests of one method, route and status, counted in plain numbers. */
class RequestSeries {
  count = 0;
  sum = 0;
  /** Requests per latency bucket (not cumulative); the last slot is above every bound. */
  readonly buckets = new Array<number>(LATENCY_BUCKETS.length + 1).fill(0);

  constructor(readonly labels: SeriesLabels) {}

  observe(seconds: number): void {
    this.count += 1;
    this.sum += seconds;
    let i = 0;
    while (i < LATENCY_BUCKETS.length && seconds > (LATENCY_BUCKETS[i] as number)) i += 1;
    this.buckets[i] = (this.buckets[i] as number) + 1;
  }
}

interface MetricValue {
  labels: Record<string, string | number>;
  sharedLabels?: SeriesLabels;
  value: number;
  metricName?: string;
}

/**
 * A metric prom-client's registry reads when scraped (it calls `get`). Requests are counted in
 * `RequestSeries`: prom-client's own counter and histogram hash their labels on every observation,
 * even through a child bound to them, which was a visible share of a cached lookup's CPU.
 */
function scrapedMetric(name: string, help: string, type: 'counter' | 'histogram', values: () => MetricValue[], reset: () => void): Metric {
  const metric = {
    name,
    help,
    type,
    aggregator: 'sum',
    get: () => Promise.resolve({ name, help, type, aggregator: 'sum', values: values() }),
    reset,
  };
  return metric as unknown as Metric;
}

@Injectable()
export class ApiMetrics {
  readonly registry = new Registry();
  /** One per method, route and status; the key is `method status route`. */
  private readonly series = new Map<string, RequestSeries>();
  private readonly bodyBytes: Counter;

  constructor(changes: ChangeListener) {
    collectDefaultMetrics({ register: this.registry });
    const all = (): RequestSeries[] => [...this.series.values()];
    const reset = (): void => this.series.clear();
    this.registry.registerMetric(
      scrapedMetric('http_requests_total', 'HTTP requests by method, route and status', 'counter', () => all().map((s) => ({ labels: s.labels, value: s.count })), reset),
    );
    this.registry.registerMetric(
      scrapedMetric('http_request_duration_seconds', 'HTTP request latency by method, route and status', 'histogram', () => all().flatMap(histogramValues), reset),
    );
    this.bodyBytes = new Counter({
      name: 'bhis_request_body_bytes_read_total',
      help: 'Request body bytes read for parsing, after decompression (a body refused before its read adds nothing)',
      registers: [this.registry],
    });
    new Gauge({
      name: 'bhis_change_notifications_up',
      help: '1 while the API receives change notifications from Postgres (in-memory caches in use), else 0',
      registers: [this.registry],
      collect() {
        this.set(changes.isLive() ? 1 : 0);
      },
    });
  }

  /** Counts the bytes of a body chunk read for parsing (called by the body reader as it inflates). */
  recordBodyBytes = (bytes: number): void => this.bodyBytes.inc(bytes);

  /** Counts a finished request (called once the response is sent, request-context.middleware.ts). */
  recordRequest: ResponseFinished = (req, res) => {
    const seconds = Number(process.hrtime.bigint() - platformState(req).startedAt) / 1e9;
    this.seriesOf(req.method, routeLabel(req), res.statusCode).observe(seconds);
  };

  private seriesOf(method: string, route: string, status: number): RequestSeries {
    const id = `${method} ${status} ${route}`;
    let found = this.series.get(id);
    if (!found) {
      found = new RequestSeries({ method, route, status: String(status) });
      this.series.set(id, found);
    }
    return found;
  }
}

/** A series as Prometheus histogram values: cumulative buckets, `+Inf`, sum and count. */
function histogramValues(series: RequestSeries): MetricValue[] {
  const name = 'http_request_duration_seconds';
  const values: MetricValue[] = [];
  let cumulative = 0;
  LATENCY_BUCKETS.forEach((bound, i) => {
    cumulative += series.buckets[i] as number;
    values.push({ labels: { le: bound }, sharedLabels: series.labels, value: cumulative, metricName: `${name}_bucket` });
  });
  values.push({ labels: { le: '+Inf' }, sharedLabels: series.labels, value: series.count, metricName: `${name}_bucket` });
  values.push({ labels: {}, sharedLabels: series.labels, value: series.sum, metricName: `${name}_sum` });
  values.push({ labels: {}, sharedLabels: series.labels, value: series.count, metricName: `${name}_count` });
  return values;
}

function routeLabel(req: Request): string {
  const route = (req as Request & { route?: { path?: string } }).route?.path ?? platformState(req).route;
  if (route) return route;
  return req.path.startsWith('/api/') ? 'unmatched' : 'static';
}
