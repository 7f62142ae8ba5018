import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The ready-to-serve building document (spec 2.2: facts, scores, counts, confidence) kept with the
 * current score, so a lookup is one primary-key read. `json` (not jsonb) keeps the text as written,
 * field order included, so it can be served without re-encoding.
 */
export class ScoreDocuments1763700300000 implements MigrationInterface {
  name = 'ScoreDocuments1763700300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE building_scores ADD COLUMN document json NOT NULL DEFAULT '{}'`);
    await q.query(`ALTER TABLE building_scores ALTER COLUMN explanation TYPE json USING explanation::json`);
    await q.query(`ALTER TABLE building_scores ADD COLUMN label text NOT NULL DEFAULT ''`);
    await q.query(`ALTER TABLE building_scores ADD COLUMN peer_group text NOT NULL DEFAULT ''`);
    await q.query(`CREATE INDEX score_history_run_idx ON score_history (run_id)`);
    // the area complaint rate of a scoring run reads only the last year's complaints
    await q.query(
      `CREATE INDEX events_complaints_idx ON events (occurred_on) WHERE event_type IN ('hpd_complaint', 'complaint_311') AND NOT scoring_excluded`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX events_complaints_idx`);
    await q.query(`DROP INDEX score_history_run_idx`);
    await q.query(`ALTER TABLE building_scores DROP COLUMN peer_group`);
    await q.query(`ALTER TABLE building_scores ALTER COLUMN explanation TYPE jsonb USING explanation::jsonb`);
    await q.query(`ALTER TABLE building_scores DROP COLUMN label, DROP COLUMN document`);
  }
}
