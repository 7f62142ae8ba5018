import { MigrationInterface, QueryRunner } from 'typeorm';
import { jsonbText, readRecord, splitAttributes, SQL_ATTRIBUTES } from '../event-record';
import { rewriteEvents } from './rewrite-events';

/**
 * Event attributes that SQL never reads move from the jsonb into a compressed per-source record
 * (`events.record`, see event-record.ts and docs/adr/0011-event-storage-and-load-path.md). Existing
 * rows are converted here (rewrite-events.ts). Rows whose attributes are all read by SQL keep a null record.
 */
export class CompactEventRecords1763701900000 implements MigrationInterface {
  name = 'CompactEventRecords1763701900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE events ADD COLUMN record bytea`);
    const keep = [...SQL_ATTRIBUTES].map((k) => `'${k}'`).join(',');
    await rewriteEvents(q, `record IS NULL AND EXISTS (SELECT 1 FROM jsonb_object_keys(attributes) k WHERE k NOT IN (${keep}))`, (row) => {
      const { sql, record } = splitAttributes(row.source, row.attributes);
      return { attributes: jsonbText(sql), record, description: row.description };
    });
  }

  async down(q: QueryRunner): Promise<void> {
    await rewriteEvents(q, `record IS NOT NULL`, (row) => {
      const recorded = readRecord(row.source, row.record as Buffer);
      return { attributes: jsonbText({ ...row.attributes, ...recorded.attributes }), record: null, description: row.description ?? recorded.description };
    });
    await q.query(`ALTER TABLE events DROP COLUMN record`);
  }
}
