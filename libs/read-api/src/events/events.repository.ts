import { Inject, Injectable } from '@nestjs/common';
import type { ReadPool } from '@bhis/db';
import type { CursorPosition } from '../shared/cursor';
import { READ_POOL } from '../shared/tokens';
import type { EventFilters } from './events-params';
import { eventStatement, eventsStatement } from './events.query';

export interface EventRow {
  id: string;
  source: string;
  source_record_id: string;
  category: string;
  severity: string;
  event_type: string;
  status: string | null;
  occurred_on: string | null;
  closed_on: string | null;
  description: string | null;
  hpd_building_id: string | null;
  /** JSON text of the attributes SQL reads (the rest is in `record`). */
  attributes: string;
  /** The compact record of the other attributes (event-record.ts in @bhis/db). */
  record: Buffer | null;
  /** A 311 request's mark as a duplicate of an HPD complaint, printed among the attributes. */
  duplicate_of_hpd_complaint: string | null;
}

/** One event of a building: `found` false when the building is not in the data set, `row` null when it has no such event. */
export type OneEvent = { found: false } | { found: true; row: EventRow | null };

/** A page of events; `next` is where the next page starts, null when none follows. */
export type EventsPage = { found: false } | { found: true; rows: EventRow[]; next: CursorPosition | null };

type StatementRow = (EventRow | Record<keyof EventRow, null>) & { scan_end_on: string | null; scan_end_id: string | null };

@Injectable()
export class EventsRepository {
  constructor(@Inject(READ_POOL) private readonly pool: () => ReadPool) {}

  async one(bbl: string, id: string): Promise<OneEvent> {
    const { rows } = await this.pool().query<EventRow | Record<keyof EventRow, null>>(eventStatement(bbl, id));
    const row = rows[0];
    if (!row) return { found: false };
    return { found: true, row: row.id === null ? null : (row as EventRow) };
  }

  async page(bbl: string, filters: EventFilters, position: CursorPosition | null, limit: number): Promise<EventsPage> {
    const { rows } = await this.pool().query<StatementRow>(eventsStatement(bbl, filters, position, limit + 1));
    if (rows.length === 0) return { found: false };
    // a building without (matching) events: one row of nulls from the LEFT JOIN
    const events = rows.filter((row): row is EventRow & StatementRow => row.id !== null);
    const page = events.slice(0, limit);
    const last = page[page.length - 1];
    if (events.length > limit && last) return { found: true, rows: page, next: [last.occurred_on, last.id] };
    // a filtered read that stopped at its bound goes on from the last event it read
    const end = rows[0];
    return { found: true, rows: page, next: end && end.scan_end_id !== null ? [end.scan_end_on, end.scan_end_id] : null };
  }
}
