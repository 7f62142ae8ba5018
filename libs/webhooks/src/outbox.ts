import type { Pool } from 'pg';
import type { ListPosition } from './list-position';
import { inTransaction } from '@bhis/db';

/** A delivery claimed by one worker for one attempt. */
export interface ClaimedDelivery {
  id: string;
  webhookId: string;
  monitorId: string;
  payload: string;
  /** The number of this attempt (1 for the first). */
  attempt: number;
  attemptId: string;
  webhookUrl: string;
  signingSecret: string;
  /** The secret being rotated out, while its overlap lasts: deliveries are signed with both. */
  previousSigningSecret: string | null;
}

/** How an attempt ended, as recorded in the outbox. */
export type AttemptRecord =
  | { outcome: 'delivered'; statusCode: number; durationMs: number }
  | { outcome: 'retry'; statusCode: number | null; durationMs: number; error: string | null; retryInMs: number }
  | { outcome: 'failed'; statusCode: number | null; durationMs: number; error: string | null }
  | { outcome: 'gone'; statusCode: 410; durationMs: number };

const ISO_UTC = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
/** The monitor's API key (alias k) is neither revoked nor expired: checked again before every delivery. */
const KEY_USABLE = `k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())`;
/** Keyset positions keep the full precision of the timestamp, so pages neither skip nor repeat rows. */
const ISO_UTC_MICROS = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

/**
 * Turns the grade crossings of one scoring run into outbox rows, one per (monitor, crossing), for active
 * monitors whose grade filter matches: with a grade list, the building must enter or leave those grades.
 * Crossings with a quiet reason (grade_crossings.quiet_reason) are held back, see below.
 * Idempotent: a repeated dispatch of the same run creates nothing. Returns the ids of new deliveries.
 */
export async function dispatchCrossings(pool: Pool, scoringRunId: string): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO webhook_deliveries (monitor_id, crossing_id, event_type, bbl, payload)
     SELECT m.id, gc.id, 'building.grade_changed', gc.bbl,
            json_build_object(
              'type', 'building.grade_changed',
              'timestamp', to_char(now() AT TIME ZONE 'UTC', ${ISO_UTC}),
              'data', json_build_object(
                'monitor_id', m.id,
                'bbl', gc.bbl,
                'address', b.address,
                'previous', json_build_object('grade', gc.previous_grade, 'total_score', gc.previous_score),
                'current', json_build_object('grade', gc.current_grade, 'total_score', gc.current_score),
                'as_of', to_char(gc.as_of, 'YYYY-MM-DD'),
                'scorer_id', gc.scorer_id))::text
       FROM grade_crossings gc
       JOIN monitor_buildings mb ON mb.bbl = gc.bbl
       JOIN monitors m ON m.id = mb.monitor_id
       JOIN api_keys k ON k.id = m.api_key_id
       LEFT JOIN buildings b ON b.bbl = gc.bbl
      WHERE gc.run_id = $1
        AND m.status = 'active' AND ${KEY_USABLE}
        -- a monitor hears of changes found after it was created, not of older runs dispatched late
        AND gc.created_at >= m.created_at
        AND gc.previous_grade <> gc.current_grade
        -- a change caused by a stale source alone or by a new scorer version is never sent; one of a building
        -- the model cannot know (public housing, unreliable unit count) only to monitors that asked for those
        AND (gc.quiet_reason IS NULL OR (m.include_uncertain AND gc.quiet_reason IN ('public-housing', 'units-unknown')))
        AND (m.grades IS NULL
             OR (gc.previous_grade::text = ANY (m.grades)) <> (gc.current_grade::text = ANY (m.grades)))
      ORDER BY gc.id, m.id
     ON CONFLICT (monitor_id, crossing_id) DO NOTHING
     RETURNING id`,
    [scoringRunId],
  );
  return rows.map((r) => r.id);
}

/** Queues a signed `monitor.test` event for a monitor through the outbox. */
export async function createTestDelivery(pool: Pool, monitorId: string): Promise<{ id: string; webhookId: string; createdAt: Date }> {
  const { rows } = await pool.query<{ id: string; webhook_id: string; created_at: Date }>(
    `INSERT INTO webhook_deliveries (monitor_id, event_type, payload)
     VALUES ($1, 'monitor.test', json_build_object(
       'type', 'monitor.test',
       'timestamp', to_char(now() AT TIME ZONE 'UTC', ${ISO_UTC}),
       'data', json_build_object('monitor_id', $1::uuid, 'message', 'Test event: the webhook endpoint and signature verification work.'))::text)
     RETURNING id, webhook_id, created_at`,
    [monitorId],
  );
  return { id: rows[0].id, webhookId: rows[0].webhook_id, createdAt: rows[0].created_at };
}

/**
 * Claims a due, pending delivery of an active monitor for one attempt: the row is locked for `lockMs`
 * (a worker that dies mid-attempt lets the lock expire) and the attempt is recorded before anything is
 * sent. An attempt left unfinished by a dead worker is closed as interrupted. Null when there is nothing
 * to do (not due, already delivered, claimed by another worker, monitor disabled or deleted).
 */
export async function claimDelivery(pool: Pool, deliveryId: string, lockMs: number, earlyToleranceMs = 2_000): Promise<ClaimedDelivery | null> {
  const { rows } = await pool.query<{
    id: string;
    webhook_id: string;
    monitor_id: string;
    payload: string;
    attempts: number;
    attempt_id: string;
    webhook_url: string;
    signing_secret: string;
    previous_signing_secret: string | null;
  }>(
    `WITH claimed AS (
       UPDATE webhook_deliveries d
          SET attempts = d.attempts + 1, locked_until = now() + make_interval(secs => $2::double precision / 1000)
         FROM monitors m JOIN api_keys k ON k.id = m.api_key_id
        WHERE d.id = $1 AND m.id = d.monitor_id AND m.status = 'active' AND ${KEY_USABLE} AND d.status = 'pending'
          AND d.next_attempt_at <= now() + make_interval(secs => $3::double precision / 1000)
          AND (d.locked_until IS NULL OR d.locked_until < now())
       RETURNING d.id, d.webhook_id, d.monitor_id, d.payload, d.attempts, m.webhook_url, m.signing_secret,
                 CASE WHEN m.previous_secret_expires_at > now() THEN m.previous_signing_secret END AS previous_signing_secret
     ), interrupted AS (
       UPDATE webhook_attempts a
          SET finished_at = now(), outcome = 'interrupted', error = 'the delivery worker stopped during the attempt'
         FROM claimed
        WHERE a.delivery_id = claimed.id AND a.finished_at IS NULL
     ), attempt AS (
       INSERT INTO webhook_attempts (delivery_id, attempt) SELECT id, attempts FROM claimed RETURNING id
     )
     SELECT claimed.*, attempt.id AS attempt_id FROM claimed, attempt`,
    [deliveryId, lockMs, earlyToleranceMs],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    webhookId: row.webhook_id,
    monitorId: row.monitor_id,
    payload: row.payload,
    attempt: row.attempts,
    attemptId: row.attempt_id,
    webhookUrl: row.webhook_url,
    signingSecret: row.signing_secret,
    previousSigningSecret: row.previous_signing_secret,
  };
}

/** Records how an attempt ended and moves the delivery on (delivered, retry later, failed, monitor gone). */
export async function recordAttempt(pool: Pool, claimed: ClaimedDelivery, result: AttemptRecord): Promise<void> {
  const statusCode = result.statusCode;
  const error = result.outcome === 'retry' || result.outcome === 'failed' ? result.error : null;
  await inTransaction(pool, async (client) => {
    await client.query(
      `UPDATE webhook_attempts SET finished_at = now(), outcome = $2, status_code = $3, duration_ms = $4, error = $5 WHERE id = $1`,
      [claimed.attemptId, result.outcome, statusCode, result.durationMs, error],
    );
    switch (result.outcome) {
      case 'delivered':
        await client.query(
          `UPDATE webhook_deliveries SET status = 'delivered', delivered_at = now(), finished_at = now(), locked_until = NULL,
                  last_status_code = $2, last_error = NULL WHERE id = $1`,
          [claimed.id, statusCode],
        );
        break;
      case 'retry':
        await client.query(
          `UPDATE webhook_deliveries SET next_attempt_at = now() + make_interval(secs => $2::double precision / 1000), locked_until = NULL,
                  last_status_code = $3, last_error = $4 WHERE id = $1`,
          [claimed.id, result.retryInMs, statusCode, error],
        );
        break;
      case 'failed':
        await client.query(
          `UPDATE webhook_deliveries SET status = 'failed', finished_at = now(), locked_until = NULL, last_status_code = $2, last_error = $3
            WHERE id = $1`,
          [claimed.id, statusCode, error],
        );
        break;
      case 'gone':
        await client.query(
          `UPDATE monitors SET status = 'disabled', disabled_at = now(), updated_at = now(),
                  disabled_reason = 'The webhook endpoint answered 410 Gone.'
            WHERE id = $1 AND status = 'active'`,
          [claimed.monitorId],
        );
        await client.query(
          `UPDATE webhook_deliveries SET status = 'failed', finished_at = now(), locked_until = NULL, last_status_code = 410,
                  last_error = 'The webhook endpoint answered 410 Gone; the monitor is disabled.' WHERE id = $1`,
          [claimed.id],
        );
        await cancelPendingOfDisabledMonitors(client, claimed.monitorId);
        break;
    }
  });
}

/** Pending deliveries of disabled monitors are cancelled: nothing more is sent to a 410 endpoint. */
export async function cancelPendingOfDisabledMonitors(db: Pick<Pool, 'query'>, monitorId?: string): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE webhook_deliveries d SET status = 'cancelled', finished_at = now(), locked_until = NULL
       FROM monitors m
      WHERE m.id = d.monitor_id AND m.status = 'disabled' AND d.status = 'pending' AND ($1::uuid IS NULL OR m.id = $1::uuid)`,
    [monitorId ?? null],
  );
  return rowCount ?? 0;
}

/** The API key whose monitor a delivery belongs to (null when the delivery or monitor is gone). */
export async function deliveryKeyId(pool: Pool, deliveryId: string): Promise<string | null> {
  const { rows } = await pool.query<{ api_key_id: string }>(
    `SELECT m.api_key_id FROM webhook_deliveries d JOIN monitors m ON m.id = d.monitor_id WHERE d.id = $1`,
    [deliveryId],
  );
  return rows[0]?.api_key_id ?? null;
}

/** Pending deliveries that are due and not held by a live worker: what a sweep (re)queues. */
export async function findDueDeliveries(pool: Pool, limit: number): Promise<{ id: string; attempts: number }[]> {
  const { rows } = await pool.query<{ id: string; attempts: number }>(
    `SELECT d.id, d.attempts FROM webhook_deliveries d JOIN monitors m ON m.id = d.monitor_id JOIN api_keys k ON k.id = m.api_key_id
      WHERE d.status = 'pending' AND m.status = 'active' AND ${KEY_USABLE} AND d.next_attempt_at <= now()
        AND (d.locked_until IS NULL OR d.locked_until < now())
      ORDER BY d.next_attempt_at LIMIT $1`,
    [limit],
  );
  return rows;
}

export interface DeliveryAttemptView {
  attempt: number;
  started_at: string;
  finished_at: string | null;
  outcome: string | null;
  status_code: number | null;
  duration_ms: number | null;
  error: string | null;
}

export interface DeliveryView {
  id: string;
  webhook_id: string;
  event_type: string;
  bbl: string | null;
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  delivered_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  attempt_log: DeliveryAttemptView[];
}

/** A monitor's deliveries, newest first, each with its attempts; `limit + 1` rows are read. */
export async function listDeliveries(
  pool: Pool,
  monitorId: string,
  limit: number,
  after: ListPosition | null,
): Promise<{ delivery: DeliveryView; position: ListPosition }[]> {
  const { rows } = await pool.query<DeliveryView & { position_at: string }>(
    `SELECT d.id, d.webhook_id, d.event_type, d.bbl, d.status, d.attempts,
            CASE WHEN d.status = 'pending' THEN to_char(d.next_attempt_at AT TIME ZONE 'UTC', ${ISO_UTC}) END AS next_attempt_at,
            to_char(d.delivered_at AT TIME ZONE 'UTC', ${ISO_UTC}) AS delivered_at,
            d.last_status_code, d.last_error,
            to_char(d.created_at AT TIME ZONE 'UTC', ${ISO_UTC}) AS created_at,
            to_char(d.created_at AT TIME ZONE 'UTC', ${ISO_UTC_MICROS}) AS position_at,
            COALESCE((SELECT json_agg(json_build_object(
                        'attempt', a.attempt,
                        'started_at', to_char(a.started_at AT TIME ZONE 'UTC', ${ISO_UTC}),
                        'finished_at', to_char(a.finished_at AT TIME ZONE 'UTC', ${ISO_UTC}),
                        'outcome', a.outcome, 'status_code', a.status_code, 'duration_ms', a.duration_ms, 'error', a.error)
                        ORDER BY a.attempt)
                        FROM webhook_attempts a WHERE a.delivery_id = d.id), '[]') AS attempt_log
       FROM webhook_deliveries d
      WHERE d.monitor_id = $1 AND ($2::timestamptz IS NULL OR (d.created_at, d.id) < ($2::timestamptz, $3::uuid))
      ORDER BY d.created_at DESC, d.id DESC LIMIT $4`,
    [monitorId, after?.createdAt ?? null, after?.id ?? null, limit + 1],
  );
  return rows.map(({ position_at, ...delivery }) => ({ delivery, position: { createdAt: position_at, id: delivery.id } }));
}
