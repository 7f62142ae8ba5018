import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `events.first_seen_at` and `events.updated_at` were written by every load and read by nothing:
 * 16 bytes of every event, plus the padding their alignment took (docs/adr/0011-event-storage-and-load-path.md).
 * When the service saw a change is in `ingest_runs`, and a status change is an event of its own,
 * dated the day it was first seen. Dropping a column rewrites nothing: stored rows keep the bytes
 * until they are written again (or `VACUUM FULL events`).
 */
export class DropEventTimestamps1763702300000 implements MigrationInterface {
  name = 'DropEventTimestamps1763702300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE events DROP COLUMN first_seen_at, DROP COLUMN updated_at`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE events ADD COLUMN first_seen_at timestamptz NOT NULL DEFAULT now(), ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now()`);
  }
}
