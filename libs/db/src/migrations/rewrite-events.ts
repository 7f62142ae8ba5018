import type { QueryRunner } from 'typeorm';

const BATCH = 5000;

export interface StoredEventRow {
  bbl: string;
  id: string;
  source: string;
  attributes: Record<string, unknown>;
  record: Buffer | null;
  description: string | null;
}

/** What a row becomes: its attributes as jsonb text, its record, its description column. */
export interface RewrittenEvent {
  attributes: string;
  record: Buffer | null;
  description: string | null;
}

/**
 * Rewrites the attributes, record and description of the events a condition selects, in the migration's
 * transaction: read through a cursor, converted in batches into a temp table, written back in one
 * UPDATE. The old row versions stay behind until a `VACUUM FULL events` (or a reload).
 */
export async function rewriteEvents(q: QueryRunner, where: string, convert: (row: StoredEventRow) => RewrittenEvent): Promise<void> {
  // the whole events table in one transaction: longer than the pool's statement timeout allows
  await q.query(`SET LOCAL statement_timeout = 0`);
  await q.query(`CREATE TEMP TABLE converted_events (bbl char(10) NOT NULL, id bigint NOT NULL, attributes jsonb NOT NULL, record bytea, description text) ON COMMIT DROP`);
  await q.query(`DECLARE stored_events NO SCROLL CURSOR FOR SELECT bbl, id, source, attributes, record, description FROM events WHERE ${where}`);
  let converted = 0;
  for (;;) {
    const rows = (await q.query(`FETCH ${BATCH} FROM stored_events`)) as StoredEventRow[];
    if (rows.length === 0) break;
    const out = rows.map(convert);
    await q.query(
      `INSERT INTO converted_events SELECT * FROM unnest($1::char(10)[], $2::bigint[], $3::jsonb[], $4::bytea[], $5::text[])`,
      [rows.map((r) => r.bbl), rows.map((r) => r.id), out.map((o) => o.attributes), out.map((o) => o.record), out.map((o) => o.description)],
    );
    converted += rows.length;
  }
  await q.query(`CLOSE stored_events`);
  if (converted > 0) {
    await q.query(`ANALYZE converted_events`);
    await q.query(`UPDATE events e SET attributes = c.attributes, record = c.record, description = c.description FROM converted_events c WHERE e.bbl = c.bbl AND e.id = c.id`);
  }
  await q.query(`DROP TABLE converted_events`);
}
