import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The answers of requests sent with an `Idempotency-Key` (libs/api-platform/src/idempotency.ts),
 * one row per (API key, method, path, Idempotency-Key), kept 24 hours (docs/adr/0023-idempotency-keys.md).
 * `status` is NULL while the first request is in flight; `locked_until` lets a request whose process
 * died give its key up.
 */
export class IdempotencyKeys1763723010000 implements MigrationInterface {
  name = 'IdempotencyKeys1763723010000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE idempotency_keys (
        api_key_id uuid NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
        method text NOT NULL,
        path text NOT NULL,
        idempotency_key text NOT NULL,
        -- SHA-256 of the request body in canonical JSON (keys sorted)
        request_hash bytea NOT NULL,
        status smallint,
        response_headers jsonb,
        response_body bytea,
        locked_until timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (api_key_id, method, path, idempotency_key)
      )`);
    await q.query(`CREATE INDEX idempotency_keys_expiry_idx ON idempotency_keys (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS idempotency_keys`);
  }
}
