import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The area reporting propensity of each month: the complaints and recorded conditions of every ZIP
 * code over the twelve months before the month began, counted by the first scoring run of the month
 * that needs them and by every full run, and read back by the other runs of the month
 * (libs/score-runner/src/feature-queries.ts). Counting them read ~15 s of the whole city's events
 * before a daily refresh's rescoring could start (docs/adr/0016-area-propensity-by-month.md).
 */
export class AreaReportingCounts1763703100000 implements MigrationInterface {
  name = 'AreaReportingCounts1763703100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE area_reporting_counts (
        month date PRIMARY KEY CHECK (extract(day FROM month) = 1),
        counts jsonb NOT NULL,
        counted_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS area_reporting_counts`);
  }
}
