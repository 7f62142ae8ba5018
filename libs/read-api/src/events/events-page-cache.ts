import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@bhis/config';
import { CONFIG } from '@bhis/api-platform';
import { CHANGE_CHANNELS, ChangeListener, NotifiedCache } from '@bhis/db';
import type { CursorPosition } from '../shared/cursor';

/** A rendered page of events: the `data` member as JSON text, its digest and its pagination. */
export interface RenderedEventsPage {
  data: string;
  dataDigest: string;
  hasMore: boolean;
  nextPosition: CursorPosition | null;
}

/**
 * Rendered pages of events kept in memory up to EVENTS_CACHE_MB, by building, filters, position and
 * size; emptied at every change of `events` or `buildings` announced by Postgres (see NotifiedCache).
 */
@Injectable()
export class EventsPageCache {
  private readonly cache: NotifiedCache<RenderedEventsPage>;

  constructor(@Inject(CONFIG) config: AppConfig, changes: ChangeListener) {
    this.cache = new NotifiedCache<RenderedEventsPage>(changes, [CHANGE_CHANNELS.events, CHANGE_CHANNELS.buildingDocuments], {
      maxBytes: config.EVENTS_CACHE_MB * 1024 * 1024,
      sizeOf: (page) => page.data.length * 2 + 200,
    });
  }

  /** The page for `key`, or the one `render` reads; null when the building is not in the data set. */
  async get(key: string, render: () => Promise<RenderedEventsPage | null>): Promise<RenderedEventsPage | null> {
    return (await this.cache.getOrLoad(key, async () => (await render()) ?? undefined)) ?? null;
  }
}
