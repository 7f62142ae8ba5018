import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A new key is announced like any other change of `api_keys`: instances remember well-formed keys that
 * matched no row (libs/api-platform/src/api-key-store.ts), and a created key must not stay refused
 * as unknown until some other change empties that memory.
 */
export class AnnounceKeyInserts1763704100000 implements MigrationInterface {
  name = 'AnnounceKeyInserts1763704100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER api_keys_changed ON api_keys`);
    // last_used_at is written in batches and says nothing about a key's validity: not announced
    await q.query(`
      CREATE TRIGGER api_keys_changed
        AFTER INSERT OR UPDATE OF name, kind, prefix, key_hash, scopes, rate_limit_per_min, expires_at, revoked_at OR DELETE
        ON api_keys FOR EACH STATEMENT EXECUTE FUNCTION bhis_notify_change('bhis_api_keys_changed')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER api_keys_changed ON api_keys`);
    await q.query(`
      CREATE TRIGGER api_keys_changed
        AFTER UPDATE OF name, kind, prefix, key_hash, scopes, rate_limit_per_min, expires_at, revoked_at OR DELETE
        ON api_keys FOR EACH STATEMENT EXECUTE FUNCTION bhis_notify_change('bhis_api_keys_changed')`);
  }
}
