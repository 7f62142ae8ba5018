import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Smaller events, faster loads (docs/adr/0011-event-storage-and-load-path.md): a refresh compares stored and
 * staged records column by column, so the per-row hash is no longer written; nothing reads events
 * by (bbl, id), so that primary key index only cost space and load time (the unique record key
 * and the timeline index stay).
 */
export class CompactEvents1763701700000 implements MigrationInterface {
  name = 'CompactEvents1763701700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE events ALTER COLUMN row_hash DROP NOT NULL`);
    await q.query(`ALTER TABLE events DROP CONSTRAINT events_pkey`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE events ADD PRIMARY KEY (bbl, id)`);
    await q.query(`UPDATE events SET row_hash = '' WHERE row_hash IS NULL`);
    await q.query(`ALTER TABLE events ALTER COLUMN row_hash SET NOT NULL`);
  }
}
