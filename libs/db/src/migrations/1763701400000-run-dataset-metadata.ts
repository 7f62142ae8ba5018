import { MigrationInterface, QueryRunner } from 'typeorm';

/** The Open Data metadata (column display names -> field names) each run was read with, per part. */
export class RunDatasetMetadata1763701400000 implements MigrationInterface {
  name = 'RunDatasetMetadata1763701400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ingest_runs ADD COLUMN IF NOT EXISTS dataset_metadata jsonb NOT NULL DEFAULT '{}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ingest_runs DROP COLUMN IF EXISTS dataset_metadata`);
  }
}
