import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Revoking an API key disables its monitors and cancels their pending deliveries in the same
 * transaction, whichever way the key is revoked (CLI, SQL). The delivery worker also checks the key
 * before each attempt, so an expired key's monitors send nothing either.
 */
export class RevokedKeyMonitors1763701600000 implements MigrationInterface {
  name = 'RevokedKeyMonitors1763701600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION disable_monitors_of_revoked_key() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE monitors SET status = 'disabled', disabled_at = now(), updated_at = now(),
               disabled_reason = 'The API key of this monitor was revoked.'
         WHERE api_key_id = NEW.id AND status = 'active';
        UPDATE webhook_deliveries d SET status = 'cancelled', finished_at = now(), locked_until = NULL
          FROM monitors m
         WHERE m.id = d.monitor_id AND m.api_key_id = NEW.id AND d.status = 'pending';
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER api_keys_revoked_disable_monitors AFTER UPDATE OF revoked_at ON api_keys
        FOR EACH ROW WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL)
        EXECUTE FUNCTION disable_monitors_of_revoked_key()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS api_keys_revoked_disable_monitors ON api_keys`);
    await q.query(`DROP FUNCTION IF EXISTS disable_monitors_of_revoked_key()`);
  }
}
