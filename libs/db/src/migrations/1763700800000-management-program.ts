import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The HPD jurisdiction `ManagementProgram` of a building (PVT, NYCHA, ...): public housing is graded
 * with the lowest confidence and kept apart (docs/methodology.md, Known limits). Grade crossings say
 * why a monitor should stay quiet about them, and monitors may ask to hear of them anyway.
 */
export class ManagementProgram1763700800000 implements MigrationInterface {
  name = 'ManagementProgram1763700800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE buildings ADD COLUMN management_program text`);
    await q.query(`ALTER TABLE grade_crossings ADD COLUMN quiet_reason text`);
    await q.query(`ALTER TABLE monitors ADD COLUMN include_uncertain boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE monitors DROP COLUMN include_uncertain`);
    await q.query(`ALTER TABLE grade_crossings DROP COLUMN quiet_reason`);
    await q.query(`ALTER TABLE buildings DROP COLUMN management_program`);
  }
}
