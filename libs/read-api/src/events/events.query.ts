import type { CursorPosition } from '../shared/cursor';
import { namedStatement, StatementValues } from '../shared/statement';
import type { EventFilters } from './events-params';

/** Read as typed columns inside the page (so ORDER BY and the keyset compare dates and bigints)... */
const COLUMNS = `id, source, source_record_id, category, severity, event_type, status, occurred_on, closed_on, description, attributes, record,
  duplicate_of_hpd_complaint`;

/** ...and turned into text once, outside. */
const OUTPUT = `e.id::text AS id, e.source, e.source_record_id, e.category, e.severity, e.event_type, e.status,
       e.occurred_on::text AS occurred_on, e.closed_on::text AS closed_on, e.description,
       e.attributes->>'building_id' AS hpd_building_id, e.attributes::text AS attributes, e.record, e.duplicate_of_hpd_complaint`;

/** Newest first, the order of events_timeline_idx (bbl, occurred_on DESC NULLS LAST, id DESC). */
const ORDER = 'occurred_on DESC NULLS LAST, id DESC';

/**
 * One statement per page: the building row (so an unknown BBL is told apart from a building without
 * events) joined to the page of its events. The keyset position is an index bound, never an OFFSET:
 * dated events after the position come from `(occurred_on, id) < (d, id)`, then the undated ones
 * (which sort last) from `occurred_on IS NULL AND id < id`.
 */
export function eventsStatement(bbl: string, filters: EventFilters, position: CursorPosition | null, limit: number) {
  const v = new StatementValues();
  const bblParam = v.add(bbl, '::bpchar');
  const where = [`bbl = ${bblParam}`];
  // the codes are enums (migration 1763702400000-event-code-types): every value the parameters let through is a label
  if (filters.sources) where.push(`source = ANY(${v.add(filters.sources, '::event_source[]')})`);
  if (filters.categories) where.push(`category = ANY(${v.add(filters.categories, '::event_category[]')})`);
  if (filters.severities) where.push(`severity = ANY(${v.add(filters.severities, '::event_severity[]')})`);
  if (filters.since) where.push(`occurred_on >= ${v.add(filters.since, '::date')}`);
  if (filters.until) where.push(`occurred_on <= ${v.add(filters.until, '::date')}`);
  const datesBounded = filters.since !== null || filters.until !== null;
  const limitParam = v.add(limit, '::int');
  const filter = where.join(' AND ');

  let page: string;
  if (!position) {
    page = `SELECT ${COLUMNS} FROM events WHERE ${filter} ORDER BY ${ORDER} LIMIT ${limitParam}`;
  } else if (position[0] === null) {
    page = `SELECT ${COLUMNS} FROM events WHERE ${filter} AND occurred_on IS NULL AND id < ${v.add(position[1], '::bigint')}
             ORDER BY ${ORDER} LIMIT ${limitParam}`;
  } else {
    const dated = `SELECT ${COLUMNS} FROM events
                    WHERE ${filter} AND (occurred_on, id) < (${v.add(position[0], '::date')}, ${v.add(position[1], '::bigint')})
                    ORDER BY ${ORDER} LIMIT ${limitParam}`;
    page = datesBounded
      ? dated
      : `SELECT * FROM ((${dated})
           UNION ALL
           (SELECT ${COLUMNS} FROM events WHERE ${filter} AND occurred_on IS NULL ORDER BY id DESC LIMIT ${limitParam})) p
         ORDER BY ${ORDER} LIMIT ${limitParam}`;
  }
  const text = `SELECT ${OUTPUT} FROM buildings b LEFT JOIN LATERAL (${page}) e ON true WHERE b.bbl = ${bblParam}
                 ORDER BY e.occurred_on DESC NULLS LAST, e.id DESC`;
  return namedStatement('read_api_events', text, v.values);
}
