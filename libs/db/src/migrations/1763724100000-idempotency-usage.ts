import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What each API key keeps of its idempotent answers, by hour (libs/api-platform/src/idempotency.ts):
 * the bytes stored in the last 24 hours are the sum of at most 25 rows, so checking a key's quota
 * costs the same whatever it has stored. Stored bodies are gzip-compressed from now on (`body_gzip`).
 */
export class IdempotencyUsage1763724100000 implements MigrationInterface {
  name = 'IdempotencyUsage1763724100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE idempotency_usage (
        api_key_id uuid NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
        hour timestamptz NOT NULL,
        bytes bigint NOT NULL,
        PRIMARY KEY (api_key_id, hour)
      )`);
    await q.query(`ALTER TABLE idempotency_keys ADD COLUMN body_gzip boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE idempotency_keys DROP COLUMN body_gzip`);
    await q.query(`DROP TABLE IF EXISTS idempotency_usage`);
  }
}
