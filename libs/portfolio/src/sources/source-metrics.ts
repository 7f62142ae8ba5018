import { Inject, Injectable } from '@nestjs/common';
import { Gauge } from 'prom-client';
import type { DataSource } from 'typeorm';
import { ApiMetrics, DATA_SOURCE } from '@bhis/api-platform';
import { poolGetter } from '@bhis/db';
import { SOURCE_STATES } from '@bhis/scoring';
import { type SourceStatus, sourceStatuses } from '@bhis/runs';

/**
 * The sources' states on `/metrics`, read from Postgres when scraped, by the rule of `GET /api/v1/sources`:
 * `bhis_source_state{source,state}` is 1 for the state each source is in and 0 for the others (alert on
 * `bhis_source_state{state="failing"} == 1`), `bhis_sources{state}` counts the sources per state, and
 * `bhis_source_failing_since_seconds{source}` is when a failing source's refreshes began to fail.
 */
@Injectable()
export class SourceMetrics {
  constructor(metrics: ApiMetrics, @Inject(DATA_SOURCE) dataSource: DataSource) {
    const pool = poolGetter(dataSource);
    let scrape: Promise<SourceStatus[] | null> | null = null;
    // the three gauges of one scrape read the table once; without Postgres they are left out, and
    // the rest of /metrics still answers
    const statuses = () => {
      scrape ??= sourceStatuses(pool())
        .catch(() => null)
        .finally(() => setImmediate(() => (scrape = null)));
      return scrape;
    };
    new Gauge({
      name: 'bhis_source_state',
      help: 'Per source, 1 for its state (ok, late, failing, never_loaded; GET /api/v1/sources), 0 for the others',
      labelNames: ['source', 'state'],
      registers: [metrics.registry],
      async collect() {
        this.reset();
        for (const source of (await statuses()) ?? []) {
          for (const state of SOURCE_STATES) this.set({ source: source.key, state }, source.state === state ? 1 : 0);
        }
      },
    });
    new Gauge({
      name: 'bhis_sources',
      help: 'Sources per state (ok, late, failing, never_loaded)',
      labelNames: ['state'],
      registers: [metrics.registry],
      async collect() {
        this.reset();
        const all = await statuses();
        if (all === null) return;
        for (const state of SOURCE_STATES) this.set({ state }, all.filter((s) => s.state === state).length);
      },
    });
    new Gauge({
      name: 'bhis_source_failing_since_seconds',
      help: 'Unix time since which the refreshes of a failing source fail',
      labelNames: ['source'],
      registers: [metrics.registry],
      async collect() {
        this.reset();
        for (const source of (await statuses()) ?? []) {
          if (source.failing_since !== null) this.set({ source: source.key }, Date.parse(source.failing_since) / 1000);
        }
      },
    });
  }
}
