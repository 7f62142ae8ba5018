import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A monitor may follow a landlord portfolio instead of a fixed BBL list: its `monitor_buildings` are
 * the portfolio's buildings, set again at every rebuild of the portfolios (libs/webhooks/src/monitor-store.ts,
 * `followPortfolios`).
 */
export class MonitorPortfolios1763723020000 implements MigrationInterface {
  name = 'MonitorPortfolios1763723020000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE monitors ADD COLUMN portfolio_id text`);
    await q.query(`CREATE INDEX monitors_portfolio_idx ON monitors (portfolio_id) WHERE portfolio_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS monitors_portfolio_idx`);
    await q.query(`ALTER TABLE monitors DROP COLUMN IF EXISTS portfolio_id`);
  }
}
