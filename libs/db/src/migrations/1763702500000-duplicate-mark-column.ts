import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The mark of a 311 request that is also an HPD complaint (the complaint's id) leaves the jsonb for a
 * column of its own, `events.duplicate_of_hpd_complaint`: as `{"duplicate_of_hpd_complaint": "..."}`
 * it took ~38 bytes more than `{}` on most 311 rows, as text it takes ~9
 * (docs/adr/0011-event-storage-and-load-path.md). The API prints it among the attributes, where
 * jsonb put it. Stored marks move here; `down` puts them back into the jsonb. Moving them leaves the
 * old row versions behind until a `VACUUM FULL events` (or a reload).
 */
export class DuplicateMarkColumn1763702500000 implements MigrationInterface {
  name = 'DuplicateMarkColumn1763702500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`SET LOCAL statement_timeout = 0`);
    await q.query(`ALTER TABLE events ADD COLUMN duplicate_of_hpd_complaint text`);
    await q.query(
      `UPDATE events SET duplicate_of_hpd_complaint = attributes ->> 'duplicate_of_hpd_complaint', attributes = attributes - 'duplicate_of_hpd_complaint'
        WHERE jsonb_typeof(attributes -> 'duplicate_of_hpd_complaint') = 'string'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`SET LOCAL statement_timeout = 0`);
    await q.query(
      `UPDATE events SET attributes = attributes || jsonb_build_object('duplicate_of_hpd_complaint', duplicate_of_hpd_complaint)
        WHERE duplicate_of_hpd_complaint IS NOT NULL`,
    );
    await q.query(`ALTER TABLE events DROP COLUMN duplicate_of_hpd_complaint`);
  }
}
