import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The hash of the line each event was read from (libs/sources/src/line-hashes.ts): a load skips the
 * lines whose hash its source has stored, unparsed (docs/adr/0020-unchanged-lines-skipped.md). NULL
 * for a record of several rows, one not read from a CSV line, and one a merge closed as vanished.
 */
export class EventLineHashes1763720000000 implements MigrationInterface {
  name = 'EventLineHashes1763720000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE events ADD COLUMN line_hash bigint`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE events DROP COLUMN line_hash`);
  }
}
