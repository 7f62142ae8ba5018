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
 * Events of one building read by a request that filters by source, category, severity or status: the filter is
 * applied to at most this many events in timeline order, so a filter that matches few or no events
 * costs at most this much, whatever the building's history (the busiest buildings have tens of
 * thousands). Twenty pages of the largest page size (100). A page may then hold fewer events than
 * asked, even none, with `has_more` and a cursor that goes on from the last event read.
 */
export const EVENTS_SCANNED_PER_PAGE = 2_000;

/**
 * One statement per page: the building row (so an unknown BBL is told apart from a building without
 * events) joined to the page of its events. The keyset position is an index bound, never an OFFSET:
 * dated events after the position come from `(occurred_on, id) < (d, id)`, then the undated ones
 * (which sort last) from `occurred_on IS NULL AND id < id`. The dates bound the timeline index scan;
 * the other filters are applied to at most EVENTS_SCANNED_PER_PAGE events of it.
 */
export function eventsStatement(bbl: string, filters: EventFilters, position: CursorPosition | null, limit: number) {
  const v = new StatementValues();
  const bblParam = v.add(bbl, '::bpchar');
  const where = [`bbl = ${bblParam}`];
  if (filters.since) where.push(`occurred_on >= ${v.add(filters.since, '::date')}`);
  if (filters.until) where.push(`occurred_on <= ${v.add(filters.until, '::date')}`);
  // the codes are enums (migration 1763702400000-event-code-types): every value the parameters let through is a label
  const content: string[] = [];
  if (filters.sources) content.push(`source = ANY(${v.add(filters.sources, '::event_source[]')})`);
  if (filters.categories) content.push(`category = ANY(${v.add(filters.categories, '::event_category[]')})`);
  if (filters.severities) content.push(`severity = ANY(${v.add(filters.severities, '::event_severity[]')})`);
  if (filters.statuses) content.push(`status = ANY(${v.add(filters.statuses, '::event_status[]')})`);
  const datesBounded = filters.since !== null || filters.until !== null;
  const limitParam = v.add(limit, '::int');

  if (content.length === 0) {
    const page = keysetPage(v, where.join(' AND '), COLUMNS, position, datesBounded, limitParam);
    const text = `SELECT ${OUTPUT}, NULL::text AS scan_end_on, NULL::text AS scan_end_id FROM buildings b LEFT JOIN LATERAL (${page}) e ON true
                   WHERE b.bbl = ${bblParam} ORDER BY e.occurred_on DESC NULLS LAST, e.id DESC`;
    return namedStatement('read_api_events', text, v.values);
  }
  const scanParam = v.add(EVENTS_SCANNED_PER_PAGE, '::int');
  const scan = keysetPage(v, where.join(' AND '), `${COLUMNS}, (${content.join(' AND ')}) AS hit`, position, datesBounded, scanParam);
  const text = `WITH scanned AS MATERIALIZED (${scan}),
       hits AS (SELECT * FROM scanned WHERE hit ORDER BY ${ORDER} LIMIT ${limitParam}),
       scan_end AS (SELECT occurred_on::text AS scan_end_on, id::text AS scan_end_id FROM scanned ORDER BY ${ORDER} OFFSET ${scanParam} - 1 LIMIT 1)
     SELECT ${OUTPUT}, (SELECT scan_end_on FROM scan_end) AS scan_end_on, (SELECT scan_end_id FROM scan_end) AS scan_end_id
       FROM buildings b LEFT JOIN hits e ON true WHERE b.bbl = ${bblParam}
      ORDER BY e.occurred_on DESC NULLS LAST, e.id DESC`;
  return namedStatement('read_api_events', text, v.values);
}

/**
 * One event by id, with the building row so an unknown BBL is told apart from an event the building
 * does not have. The building's partition is found by its BBL and the id is checked in its timeline
 * index (events carry no index by id alone): the cost grows with the building's events, not the city's.
 */
export function eventStatement(bbl: string, id: string) {
  const v = new StatementValues();
  const bblParam = v.add(bbl, '::bpchar');
  const text = `SELECT ${OUTPUT} FROM buildings b
                  LEFT JOIN LATERAL (SELECT ${COLUMNS} FROM events WHERE bbl = ${bblParam} AND id = ${v.add(id, '::bigint')}) e ON true
                 WHERE b.bbl = ${bblParam}`;
  return namedStatement('read_api_event', text, v.values);
}

/** The events after the keyset position in timeline order, at most `limitParam`. */
function keysetPage(v: StatementValues, filter: string, columns: string, position: CursorPosition | null, datesBounded: boolean, limitParam: string): string {
  if (!position) return `SELECT ${columns} FROM events WHERE ${filter} ORDER BY ${ORDER} LIMIT ${limitParam}`;
  if (position[0] === null) {
    return `SELECT ${columns} FROM events WHERE ${filter} AND occurred_on IS NULL AND id < ${v.add(position[1], '::bigint')}
             ORDER BY ${ORDER} LIMIT ${limitParam}`;
  }
  const dated = `SELECT ${columns} FROM events
                  WHERE ${filter} AND (occurred_on, id) < (${v.add(position[0], '::date')}, ${v.add(position[1], '::bigint')})
                  ORDER BY ${ORDER} LIMIT ${limitParam}`;
  return datesBounded
    ? dated
    : `SELECT * FROM ((${dated})
         UNION ALL
         (SELECT ${columns} FROM events WHERE ${filter} AND occurred_on IS NULL ORDER BY id DESC LIMIT ${limitParam})) p
       ORDER BY ${ORDER} LIMIT ${limitParam}`;
}
