import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes behind the read API's search: a grade filter ordered by score (the default sort), and the
 * building-class prefix filter. Address, owner, zipcode and score-ordered scans use the indexes of the
 * data model.
 */
export class ReadApiIndexes1763700500000 implements MigrationInterface {
  name = 'ReadApiIndexes1763700500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX IF NOT EXISTS building_scores_grade_total_idx ON building_scores (grade, total_score DESC, bbl)`);
    await q.query(`CREATE INDEX IF NOT EXISTS buildings_class_prefix_idx ON buildings (building_class text_pattern_ops)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS buildings_class_prefix_idx`);
    await q.query(`DROP INDEX IF EXISTS building_scores_grade_total_idx`);
  }
}
