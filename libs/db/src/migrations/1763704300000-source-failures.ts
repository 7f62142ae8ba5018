import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a failing source says of itself (libs/runs/src/ingest-runs.ts writes it, `GET /api/v1/sources`,
 * `bhis ingest --status` and `/metrics` read it): the code and message of the last failure, since
 * when its refreshes fail, and whether retrying can help (a permanent failure waits for the operator;
 * the daily refresh skips it). A successful refresh clears them.
 */
export class SourceFailures1763704300000 implements MigrationInterface {
  name = 'SourceFailures1763704300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE sources
        ADD COLUMN last_error_code text,
        ADD COLUMN last_error_message text,
        ADD COLUMN failing_since timestamptz,
        ADD COLUMN failure_permanent boolean NOT NULL DEFAULT false,
        ADD COLUMN last_failed_run_id uuid`);
    // a source left failed by an earlier release: since its last failed run, with that run's message
    await q.query(`
      UPDATE sources s SET (failing_since, last_error_message, last_failed_run_id) = (
        SELECT r.finished_at, r.error, r.id FROM ingest_runs r WHERE r.source = s.key AND r.status = 'failed' ORDER BY r.queued_at DESC LIMIT 1)
       WHERE s.status = 'failed'`);
    await q.query(`UPDATE sources SET failing_since = COALESCE(failing_since, now()), last_error_code = 'load_failed' WHERE status = 'failed'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE sources DROP COLUMN last_error_code, DROP COLUMN last_error_message, DROP COLUMN failing_since,
        DROP COLUMN failure_permanent, DROP COLUMN last_failed_run_id`);
  }
}
