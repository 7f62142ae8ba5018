import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * HPD registrations and their contacts that a whole export no longer carries are kept, dated
 * `vanished_on`, and stop counting for the building (current registration, owner); a later export
 * that carries them again clears the date.
 */
export class VanishedRegistrations1763701800000 implements MigrationInterface {
  name = 'VanishedRegistrations1763701800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE hpd_registrations ADD COLUMN vanished_on date`);
    await q.query(`ALTER TABLE hpd_registration_contacts ADD COLUMN vanished_on date`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE hpd_registration_contacts DROP COLUMN IF EXISTS vanished_on`);
    await q.query(`ALTER TABLE hpd_registrations DROP COLUMN IF EXISTS vanished_on`);
  }
}
