import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Portfolio monitors and the webhook outbox: one delivery row per (monitor, grade crossing) or test
 * event, and one attempt row per HTTP attempt. The outbox is the source of truth for what still has to
 * be sent; queue jobs only wake the delivery worker up.
 */
export class Monitors1763700400000 implements MigrationInterface {
  name = 'Monitors1763700400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE monitors (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        api_key_id uuid NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
        name text NOT NULL,
        webhook_url text NOT NULL,
        -- NULL: notify on any grade change; otherwise when a building enters or leaves these grades
        grades text[],
        -- the Standard Webhooks signing secret (whsec_...); returned once, at creation
        signing_secret text NOT NULL,
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
        disabled_reason text,
        disabled_at timestamptz,
        bbl_count integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX monitors_key_idx ON monitors (api_key_id, created_at DESC, id DESC)`);

    await q.query(`
      CREATE TABLE monitor_buildings (
        monitor_id uuid NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
        bbl char(10) NOT NULL,
        PRIMARY KEY (monitor_id, bbl)
      )`);
    await q.query(`CREATE INDEX monitor_buildings_bbl_idx ON monitor_buildings (bbl, monitor_id)`);

    await q.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        -- the webhook-id header: one stable id per delivery across retries, so receivers can dedupe
        webhook_id text GENERATED ALWAYS AS ('msg_' || replace(id::text, '-', '')) STORED,
        monitor_id uuid NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
        crossing_id bigint,
        event_type text NOT NULL,
        bbl char(10),
        -- the exact request body, so every retry sends the same bytes
        payload text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed', 'cancelled')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        -- set while a worker is sending; an expired lock means the worker stopped mid-attempt
        locked_until timestamptz,
        last_status_code integer,
        last_error text,
        delivered_at timestamptz,
        finished_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (monitor_id, crossing_id)
      )`);
    await q.query(`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`);
    await q.query(`CREATE INDEX webhook_deliveries_monitor_idx ON webhook_deliveries (monitor_id, created_at DESC, id DESC)`);

    await q.query(`
      CREATE TABLE webhook_attempts (
        id bigserial PRIMARY KEY,
        delivery_id uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
        attempt integer NOT NULL,
        started_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        outcome text CHECK (outcome IN ('delivered', 'retry', 'failed', 'gone', 'interrupted')),
        status_code integer,
        duration_ms integer,
        error text,
        UNIQUE (delivery_id, attempt)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['webhook_attempts', 'webhook_deliveries', 'monitor_buildings', 'monitors']) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
