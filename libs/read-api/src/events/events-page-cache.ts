import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@bhis/config';
import { CONFIG } from '@bhis/api-platform';
import { CHANGE_CHANNELS, ChangeListener, NotifiedCache } from '@bhis/db';

/** A rendered page of events: the `data` member as JSON text, its digest and its pagination. */
export interface RenderedEventsPage {
  data: string;
  dataDigest: string;
  hasMore: boolean;
  nextCursor: string | null;
}

/**
 * Rendered pages of events kept in memory up to EVENTS_CACHE_MB, by building, filters, position and
 * size; emptied at every change of `events` or `buildings` announced by Postgres (see NotifiedCache).
 */
@Injectable()
export class EventsPageCache {
  private readonly cache: NotifiedCache<RenderedEventsPage> | null;

  constructor(@Inject(CONFIG) config: AppConfig, changes: ChangeListener) {
    const maxBytes = config.EVENTS_CACHE_MB * 1024 * 1024;
    this.cache =
      maxBytes > 0
        ? new NotifiedCache<RenderedEventsPage>(changes, [CHANGE_CHANNELS.events, CHANGE_CHANNELS.buildingDocuments], {
            maxEntries: Math.min(Math.ceil(maxBytes / 4096), 1_000_000),
            maxBytes,
            sizeOf: (page) => page.data.length * 2 + 200,
          })
        : null;
  }

  /** The page for `key`, or the one `render` reads, kept unless a change was announced meanwhile. */
  async get(key: string, render: () => Promise<RenderedEventsPage | null>): Promise<RenderedEventsPage | null> {
    const cached = this.cache?.get(key);
    if (cached) return cached;
    const generation = this.cache?.generation() ?? 0;
    const page = await render();
    if (page) this.cache?.setIfUnchanged(generation, key, page);
    return page;
  }
}
