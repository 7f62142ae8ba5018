import { MigrationInterface, QueryRunner } from 'typeorm';
import { decodeRecord, jsonbText, splitAttributes, SQL_ATTRIBUTES } from '../event-record';

const BATCH = 5000;

interface StoredRow {
  bbl: string;
  id: string;
  source: string;
  attributes: Record<string, unknown>;
  record: Buffer | null;
}

/**
 * Event attributes that SQL never reads move from the jsonb into a compressed per-source record
 * (`events.record`, see event-record.ts and docs/adr/0011-event-storage-and-load-path.md). Existing
 * rows are converted here: read through a cursor, encoded in batches into a temp table, written
 * back in one UPDATE. Rows whose attributes are all read by SQL keep a null record.
 */
export class CompactEventRecords1763701900000 implements MigrationInterface {
  name = 'CompactEventRecords1763701900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE events ADD COLUMN record bytea`);
    const keep = [...SQL_ATTRIBUTES].map((k) => `'${k}'`).join(',');
    await this.rewrite(q, `record IS NULL AND EXISTS (SELECT 1 FROM jsonb_object_keys(attributes) k WHERE k NOT IN (${keep}))`, (row) => {
      const { sql, record } = splitAttributes(row.source, row.attributes);
      return [jsonbText(sql), record];
    });
  }

  async down(q: QueryRunner): Promise<void> {
    await this.rewrite(q, `record IS NOT NULL`, (row) => [
      jsonbText({ ...row.attributes, ...decodeRecord(row.source, row.record as Buffer) }),
      null,
    ]);
    await q.query(`ALTER TABLE events DROP COLUMN record`);
  }

  private async rewrite(q: QueryRunner, where: string, convert: (row: StoredRow) => [string, Buffer | null]): Promise<void> {
    // the whole events table in one transaction: longer than the pool's statement timeout allows
    await q.query(`SET LOCAL statement_timeout = 0`);
    await q.query(`CREATE TEMP TABLE converted_events (bbl char(10) NOT NULL, id bigint NOT NULL, attributes jsonb NOT NULL, record bytea) ON COMMIT DROP`);
    await q.query(`DECLARE stored_events NO SCROLL CURSOR FOR SELECT bbl, id, source, attributes, record FROM events WHERE ${where}`);
    let converted = 0;
    for (;;) {
      const rows = (await q.query(`FETCH ${BATCH} FROM stored_events`)) as StoredRow[];
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
}
