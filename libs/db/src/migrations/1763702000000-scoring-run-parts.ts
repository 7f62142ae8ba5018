import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A full scoring run is split into parts by BBL range that several scoring workers take: the run's
 * start (its clock and the model's context, read once so every part scores alike) and one row per
 * part with its range, state and counts.
 */
export class ScoringRunParts1763702000000 implements MigrationInterface {
  name = 'ScoringRunParts1763702000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE scoring_runs ADD COLUMN plan jsonb`);
    await q.query(`
      CREATE TABLE scoring_run_parts (
        run_id uuid NOT NULL REFERENCES scoring_runs (id) ON DELETE CASCADE,
        part smallint NOT NULL,
        after_bbl text NOT NULL,
        last_bbl text,
        status text NOT NULL DEFAULT 'queued',
        attempt integer NOT NULL DEFAULT 0,
        scored integer NOT NULL DEFAULT 0,
        counts jsonb,
        started_at timestamptz,
        finished_at timestamptz,
        PRIMARY KEY (run_id, part)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS scoring_run_parts`);
    await q.query(`ALTER TABLE scoring_runs DROP COLUMN IF EXISTS plan`);
  }
}
