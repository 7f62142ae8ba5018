import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An ingest run an operator asked to stop (`POST /admin/ingest/{id}/cancel`): a running load stops at
 * its next checkpoint (libs/ingestion/src/ingest-service.ts). `error_detail` holds a failure's parts as
 * data (a wrong file's missing and unexpected columns, the source it matches best) for the CLI and the admin API.
 */
export class RunCancelAndDetail1763724000000 implements MigrationInterface {
  name = 'RunCancelAndDetail1763724000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ingest_runs ADD COLUMN cancel_requested_at timestamptz, ADD COLUMN error_detail jsonb`);
    await q.query(`CREATE INDEX ingest_runs_queued_idx ON ingest_runs (queued_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ingest_runs_queued_idx`);
    await q.query(`ALTER TABLE ingest_runs DROP COLUMN cancel_requested_at, DROP COLUMN error_detail`);
  }
}
