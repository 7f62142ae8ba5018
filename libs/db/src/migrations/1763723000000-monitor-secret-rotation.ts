import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A rotated signing secret stays in use next to the new one until `previous_secret_expires_at`:
 * deliveries in that window carry a signature of each (Standard Webhooks allows several in
 * `webhook-signature`), so a receiver can switch secrets without missing an event.
 */
export class MonitorSecretRotation1763723000000 implements MigrationInterface {
  name = 'MonitorSecretRotation1763723000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE monitors ADD COLUMN previous_signing_secret text, ADD COLUMN previous_secret_expires_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE monitors DROP COLUMN IF EXISTS previous_signing_secret, DROP COLUMN IF EXISTS previous_secret_expires_at`);
  }
}
