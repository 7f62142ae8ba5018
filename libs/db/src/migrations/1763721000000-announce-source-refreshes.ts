import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A building's document carries `data_as_of`, the latest successful refresh of the sources: a refresh
 * is announced on the documents' channel, so instances drop the documents they keep in memory
 * (libs/read-api/src/buildings/building.repository.ts) instead of serving the earlier date.
 */
export class AnnounceSourceRefreshes1763721000000 implements MigrationInterface {
  name = 'AnnounceSourceRefreshes1763721000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TRIGGER sources_refreshed AFTER INSERT OR UPDATE OF last_refreshed_at OR DELETE OR TRUNCATE
        ON sources FOR EACH STATEMENT EXECUTE FUNCTION bhis_notify_change('bhis_building_documents_changed')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER sources_refreshed ON sources`);
  }
}
