import { MigrationInterface, QueryRunner } from 'typeorm';

/** No query reads events by (source, source_record_id) alone; the index only slowed every load. */
export class DropUnusedEventIndex1763700600000 implements MigrationInterface {
  name = 'DropUnusedEventIndex1763700600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS events_record_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX events_record_idx ON events (source, source_record_id)`);
  }
}
