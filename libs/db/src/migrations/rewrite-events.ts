import type { QueryRunner } from 'typeorm';

const BATCH = 5000;

export interface StoredEventRow {
  bbl: string;
  id: string;
  source: string;
  attributes: Record<string, unknown>;
  record: Buffer | null;
}

/**
 * Rewrites the attributes and record of the events a condition selects, in the migration's
 * transaction: read through a cursor, converted in batches into a temp table, written back in one
 * UPDATE. The old row versions stay behind until a `VACUUM FULL events` (or a reload).
 */
export async function rewriteEvents(q: QueryRunner, where: string, convert: (row: StoredEventRow) => [string, Buffer | null]): Promise<void> {
  // the whole events table in one transaction: longer than the pool's statement timeout allows
  await q.query(`SET LOCAL statement_timeout = 0`);
  await q.query(`CREATE TEMP TABLE converted_events (bbl char(10) NOT NULL, id bigint NOT NULL, attributes jsonb NOT NULL, record bytea) ON COMMIT DROP`);
  await q.query(`DECLARE stored_events NO SCROLL CURSOR FOR SELECT bbl, id, source, attributes, record FROM events WHERE ${where}`);
  let converted = 0;
  for (;;) {
    const rows = (await q.query(`FETCH ${BATCH} FROM stored_events`)) as StoredEventRow[];
    if (rows.length === 0) break;
    const out = rows.map(convert);
    await q.query(
      `INSERT INTO converted_events SELECT * FROM unnest($1::char(10)[], $2::bigint[], $3::jsonb[], $4::bytea[])`,
      [rows.map((r) => r.bbl), rows.map((r) => r.id), out.map((o) => o[0]), out.map((o) => o[1])],
    );
    converted += rows.length;
  }
  await q.query(`CLOSE stored_events`);
  if (converted > 0) {
    await q.query(`ANALYZE converted_events`);
    await q.query(`UPDATE events e SET attributes = c.attributes, record = c.record FROM converted_events c WHERE e.bbl = c.bbl AND e.id = c.id`);
  }
  await q.query(`DROP TABLE converted_events`);
}
