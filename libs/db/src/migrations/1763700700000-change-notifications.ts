import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Postgres notifications that let API instances cache keys and building documents in memory: a
 * statement-level trigger announces every change at commit, whoever makes it (API, CLI, workers, SQL).
 * Channels are listed in libs/db/src/change-channels.ts.
 */
export class ChangeNotifications1763700700000 implements MigrationInterface {
  name = 'ChangeNotifications1763700700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION bhis_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify(TG_ARGV[0], '');
        RETURN NULL;
      END $$`);
    // last_used_at is written in batches and says nothing about a key's validity: not announced
    await q.query(`
      CREATE TRIGGER api_keys_changed
        AFTER UPDATE OF name, kind, prefix, key_hash, scopes, rate_limit_per_min, expires_at, revoked_at OR DELETE
        ON api_keys FOR EACH STATEMENT EXECUTE FUNCTION bhis_notify_change('bhis_api_keys_changed')`);
    await q.query(`
      CREATE TRIGGER api_keys_truncated AFTER TRUNCATE ON api_keys
        FOR EACH STATEMENT EXECUTE FUNCTION bhis_notify_change('bhis_api_keys_changed')`);
    for (const table of ['buildings', 'building_scores']) {
      await q.query(`
        CREATE TRIGGER ${table}_documents_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
          ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION bhis_notify_change('bhis_building_documents_changed')`);
    }
    // on the partitioned parent: every load writes through it
    await q.query(`
      CREATE TRIGGER events_changed AFTER INSERT OR UPDATE OR DELETE
        ON events FOR EACH STATEMENT EXECUTE FUNCTION bhis_notify_change('bhis_events_changed')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER events_changed ON events`);
    for (const table of ['buildings', 'building_scores']) await q.query(`DROP TRIGGER ${table}_documents_changed ON ${table}`);
    await q.query(`DROP TRIGGER api_keys_truncated ON api_keys`);
    await q.query(`DROP TRIGGER api_keys_changed ON api_keys`);
    await q.query(`DROP FUNCTION bhis_notify_change()`);
  }
}
