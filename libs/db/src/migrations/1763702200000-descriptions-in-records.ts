import { MigrationInterface, QueryRunner } from 'typeorm';
import { jsonbText, newestDictionary, readRecord, splitAttributes } from '../event-record';
import { rewriteEvents } from './rewrite-events';

/** Status changes are built by SQL in the merge, with their description in the column: they stay so. */
const BUILT_BY_SQL = `(record IS NULL AND attributes ? 'record_event_type')`;

/**
 * An event's description moves into its compact record (event-record.ts,
 * docs/adr/0011-event-storage-and-load-path.md), written with the source's second dictionary, which
 * knows typical descriptions: ~110 bytes of an HPD violation's description take ~30 there. Every
 * record is written again, so that stored rows are byte for byte what a load writes now (a refresh
 * compares them as bytes).
 */
export class DescriptionsInRecords1763702200000 implements MigrationInterface {
  name = 'DescriptionsInRecords1763702200000';

  async up(q: QueryRunner): Promise<void> {
    await rewriteEvents(q, `(description IS NOT NULL OR record IS NOT NULL) AND NOT ${BUILT_BY_SQL}`, (row) => {
      const recorded = row.record ? readRecord(row.source, row.record) : { attributes: {}, description: null };
      const { sql, record } = splitAttributes(row.source, { ...row.attributes, ...recorded.attributes }, row.description ?? recorded.description);
      return { attributes: jsonbText(sql), record, description: null };
    });
  }

  async down(q: QueryRunner): Promise<void> {
    await rewriteEvents(q, `record IS NOT NULL`, (row) => {
      const recorded = readRecord(row.source, row.record as Buffer);
      // the dictionary of records before this migration (the code of that time knows no other)
      const { sql, record } = splitAttributes(row.source, { ...row.attributes, ...recorded.attributes }, null, Math.min(newestDictionary(row.source), 1));
      return { attributes: jsonbText(sql), record, description: row.description ?? recorded.description };
    });
  }
}
