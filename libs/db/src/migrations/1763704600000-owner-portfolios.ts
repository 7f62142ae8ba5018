import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Landlord portfolios (libs/landlords): the registrations joined by shared owners, officers and
 * offices, rebuilt as a whole after each load of the registrations or their contacts
 * (libs/ingestion/src/portfolio-graph.ts). `links` holds the names and addresses that join it, with
 * the registrations that name them.
 */
export class OwnerPortfolios1763704600000 implements MigrationInterface {
  name = 'OwnerPortfolios1763704600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE owner_portfolios (
        id text PRIMARY KEY,
        buildings integer NOT NULL,
        registrations integer NOT NULL,
        links jsonb NOT NULL,
        caution text,
        built_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE building_portfolios (
        bbl char(10) PRIMARY KEY,
        portfolio_id text NOT NULL
      )`);
    await q.query(`CREATE INDEX building_portfolios_portfolio_idx ON building_portfolios (portfolio_id, bbl)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS building_portfolios`);
    await q.query(`DROP TABLE IF EXISTS owner_portfolios`);
  }
}
