import type { Pool } from 'pg';
import type { SecretBox } from './secret-box';
import { generateSigningSecret } from './signing';
import { inTransaction } from '@bhis/db';
import { cancelPendingOfDisabledMonitors } from './outbox';
import type { ListPosition } from './list-position';

export type MonitorStatus = 'active' | 'disabled';

export interface MonitorRecord {
  id: string;
  apiKeyId: string;
  name: string;
  webhookUrl: string;
  /** null: any grade change. */
  grades: string[] | null;
  /** Also notify of buildings the model cannot know (public housing, unreliable unit count). */
  includeUncertain: boolean;
  status: MonitorStatus;
  disabledReason: string | null;
  disabledAt: Date | null;
  bblCount: number;
  /** The landlord portfolio whose buildings the monitor follows, or null for a fixed BBL list. */
  portfolioId: string | null;
  /** Until then deliveries are also signed with the secret a rotation replaced; null when none is. */
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewMonitor {
  apiKeyId: string;
  name: string;
  webhookUrl: string;
  grades: string[] | null;
  includeUncertain: boolean;
  /** Valid, distinct BBLs. */
  bbls: string[];
  /** The portfolio `bbls` are the buildings of: the monitor follows it from then on. */
  portfolioId?: string | null;
}

interface MonitorRow {
  id: string;
  api_key_id: string;
  name: string;
  webhook_url: string;
  grades: string[] | null;
  include_uncertain: boolean;
  status: MonitorStatus;
  disabled_reason: string | null;
  disabled_at: Date | null;
  bbl_count: number;
  portfolio_id: string | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const MONITOR_COLUMNS = `id, api_key_id, name, webhook_url, grades, include_uncertain, status, disabled_reason, disabled_at, bbl_count, portfolio_id,
  CASE WHEN previous_secret_expires_at > now() THEN previous_secret_expires_at END AS previous_secret_expires_at, created_at, updated_at`;

function toRecord(row: MonitorRow): MonitorRecord {
  return {
    id: row.id,
    apiKeyId: row.api_key_id,
    name: row.name,
    webhookUrl: row.webhook_url,
    grades: row.grades,
    includeUncertain: row.include_uncertain,
    status: row.status,
    disabledReason: row.disabled_reason,
    disabledAt: row.disabled_at,
    bblCount: row.bbl_count,
    portfolioId: row.portfolio_id,
    previousSecretExpiresAt: row.previous_secret_expires_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Monitors one API key may have (active or disabled; deleting one frees its place). */
export const MONITORS_PER_KEY = 100;

export class MonitorLimitError extends Error {
  constructor(readonly limit: number) {
    super(`An API key may have at most ${limit} monitors; delete one before creating another.`);
  }
}

/**
 * Creates a monitor with its buildings; the signing secret is returned here and never again (it is
 * stored sealed by `secrets`). Refuses
 * (MonitorLimitError) when the key already has `limit` monitors; the key's row is locked meanwhile, so
 * concurrent creations cannot pass the limit together.
 */
export async function createMonitor(
  pool: Pool,
  input: NewMonitor,
  secrets: SecretBox,
  limit = MONITORS_PER_KEY,
): Promise<{ monitor: MonitorRecord; secret: string }> {
  const secret = generateSigningSecret();
  return inTransaction(pool, async (client) => {
    await client.query(`SELECT 1 FROM api_keys WHERE id = $1 FOR UPDATE`, [input.apiKeyId]);
    const { rows: counted } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM monitors WHERE api_key_id = $1`, [input.apiKeyId]);
    if ((counted[0]?.n ?? 0) >= limit) throw new MonitorLimitError(limit);
    const { rows } = await client.query<MonitorRow>(
      `INSERT INTO monitors (api_key_id, name, webhook_url, grades, signing_secret, bbl_count, include_uncertain, portfolio_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${MONITOR_COLUMNS}`,
      [input.apiKeyId, input.name, input.webhookUrl, input.grades, secrets.seal(secret), input.bbls.length, input.includeUncertain, input.portfolioId ?? null],
    );
    await client.query(
      `INSERT INTO monitor_buildings (monitor_id, bbl) SELECT $1, bbl FROM unnest($2::text[]) AS bbl ON CONFLICT DO NOTHING`,
      [rows[0].id, input.bbls],
    );
    return { monitor: toRecord(rows[0]), secret };
  });
}

/** The key's monitors, newest first; `limit + 1` rows are read so the caller knows whether more follow. */
export async function listMonitors(
  pool: Pool,
  apiKeyId: string,
  limit: number,
  after: ListPosition | null,
): Promise<{ monitor: MonitorRecord; position: ListPosition }[]> {
  const { rows } = await pool.query<MonitorRow & { position_at: string }>(
    `SELECT ${MONITOR_COLUMNS}, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position_at FROM monitors
      WHERE api_key_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::uuid))
      ORDER BY created_at DESC, id DESC LIMIT $4`,
    [apiKeyId, after?.createdAt ?? null, after?.id ?? null, limit + 1],
  );
  return rows.map((row) => ({ monitor: toRecord(row), position: { createdAt: row.position_at, id: row.id } }));
}

/** One monitor of the key (another key's monitor is not found). */
export async function findMonitor(pool: Pool, apiKeyId: string, id: string): Promise<MonitorRecord | null> {
  const { rows } = await pool.query<MonitorRow>(`SELECT ${MONITOR_COLUMNS} FROM monitors WHERE id = $1 AND api_key_id = $2`, [id, apiKeyId]);
  return rows[0] ? toRecord(rows[0]) : null;
}

/** A monitor's BBLs in order, after `after` (exclusive); at most `limit` (the primary key is read in order). */
export async function monitorBbls(pool: Pool, id: string, after: string | null, limit: number): Promise<string[]> {
  const { rows } = await pool.query<{ bbl: string }>(
    `SELECT bbl FROM monitor_buildings WHERE monitor_id = $1 AND ($2::char(10) IS NULL OR bbl > $2::char(10)) ORDER BY bbl LIMIT $3`,
    [id, after, limit],
  );
  return rows.map((r) => r.bbl);
}

/** What a change of a monitor sets; an absent field is kept. `grades: null` notifies of any grade change. */
export interface MonitorChanges {
  name?: string;
  webhookUrl?: string;
  grades?: string[] | null;
  includeUncertain?: boolean;
  enabled?: boolean;
  /** Valid, distinct BBLs: they replace the monitor's buildings. */
  bbls?: string[];
  /** With `bbls` (the portfolio's buildings): the portfolio the monitor follows from then on; null with a fixed list. */
  portfolioId?: string | null;
}

export const DISABLED_BY_KEY = 'Disabled through the API.';

/**
 * Changes a monitor of the key in one transaction (its row locked, so concurrent changes apply one
 * after the other); null when the key has no such monitor. Disabling cancels its pending deliveries;
 * enabling clears the reason it was disabled for.
 */
export async function updateMonitor(pool: Pool, apiKeyId: string, id: string, changes: MonitorChanges): Promise<MonitorRecord | null> {
  return inTransaction(pool, async (client) => {
    const { rows: found } = await client.query(`SELECT 1 FROM monitors WHERE id = $1 AND api_key_id = $2 FOR UPDATE`, [id, apiKeyId]);
    if (found.length === 0) return null;
    if (changes.bbls) {
      await client.query(`DELETE FROM monitor_buildings WHERE monitor_id = $1`, [id]);
      await client.query(`INSERT INTO monitor_buildings (monitor_id, bbl) SELECT $1, bbl FROM unnest($2::text[]) AS bbl ON CONFLICT DO NOTHING`, [id, changes.bbls]);
    }
    const { rows } = await client.query<MonitorRow>(
      `UPDATE monitors SET
          name = COALESCE($3, name),
          webhook_url = COALESCE($4, webhook_url),
          grades = CASE WHEN $5::boolean THEN $6::text[] ELSE grades END,
          include_uncertain = COALESCE($7, include_uncertain),
          bbl_count = COALESCE($8, bbl_count),
          portfolio_id = CASE WHEN $8::int IS NULL THEN portfolio_id ELSE $11::text END,
          status = CASE WHEN $9::boolean IS NULL THEN status WHEN $9 THEN 'active' ELSE 'disabled' END,
          disabled_reason = CASE WHEN $9::boolean IS NULL THEN disabled_reason WHEN $9 THEN NULL
                                 WHEN status = 'disabled' THEN disabled_reason ELSE $10 END,
          disabled_at = CASE WHEN $9::boolean IS NULL THEN disabled_at WHEN $9 THEN NULL ELSE COALESCE(disabled_at, now()) END,
          updated_at = now()
        WHERE id = $1 AND api_key_id = $2 RETURNING ${MONITOR_COLUMNS}`,
      [
        id,
        apiKeyId,
        changes.name ?? null,
        changes.webhookUrl ?? null,
        changes.grades !== undefined,
        changes.grades ?? null,
        changes.includeUncertain ?? null,
        changes.bbls?.length ?? null,
        changes.enabled ?? null,
        DISABLED_BY_KEY,
        changes.portfolioId ?? null,
      ],
    );
    if (changes.enabled === false) await cancelPendingOfDisabledMonitors(client, id);
    return toRecord(rows[0]);
  });
}

/**
 * Replaces the signing secret of a monitor of the key with a new one, returned here and never again.
 * The replaced secret keeps signing deliveries next to the new one for `overlapSeconds` (0: not at
 * all); a rotation within the overlap drops the secret before it. Null when the key has no such monitor.
 */
export async function rotateSigningSecret(
  pool: Pool,
  apiKeyId: string,
  id: string,
  overlapSeconds: number,
  secrets: SecretBox,
): Promise<{ monitor: MonitorRecord; secret: string } | null> {
  const secret = generateSigningSecret();
  const { rows } = await pool.query<MonitorRow>(
    `UPDATE monitors SET
        previous_signing_secret = CASE WHEN $3::int > 0 THEN signing_secret END,
        previous_secret_expires_at = CASE WHEN $3::int > 0 THEN now() + make_interval(secs => $3::int) END,
        signing_secret = $4,
        updated_at = now()
      WHERE id = $1 AND api_key_id = $2 RETURNING ${MONITOR_COLUMNS}`,
    [id, apiKeyId, overlapSeconds, secrets.seal(secret)],
  );
  return rows[0] ? { monitor: toRecord(rows[0]), secret } : null;
}

/** Deletes a monitor of the key with its buildings and outbox rows; false when not found. */
export async function deleteMonitor(pool: Pool, apiKeyId: string, id: string): Promise<boolean> {
  const { rowCount } = await pool.query(`DELETE FROM monitors WHERE id = $1 AND api_key_id = $2`, [id, apiKeyId]);
  return (rowCount ?? 0) > 0;
}

/** The most buildings a monitor holds (the API's BBL limit); a portfolio that outgrows it is followed by its first BBLs. */
export const MONITOR_BBL_LIMIT = 10_000;

/**
 * Sets the buildings of every monitor that follows a portfolio to the portfolio's current ones, after
 * the portfolios were rebuilt (in the rebuild's transaction, so both change together). A monitor
 * whose portfolio id is gone (its lowest registration lapsed, or it merged into another) follows the
 * portfolio that now holds most of its buildings; one none of whose buildings is in a portfolio keeps
 * its buildings and its id. Returns the monitors whose buildings were set.
 */
export async function followPortfolios(db: Pick<Pool, 'query'>): Promise<number> {
  await db.query(
    `UPDATE monitors m SET portfolio_id = best.portfolio_id, updated_at = now()
       FROM (SELECT DISTINCT ON (mb.monitor_id) mb.monitor_id, bp.portfolio_id
               FROM monitors lost
               JOIN monitor_buildings mb ON mb.monitor_id = lost.id
               JOIN building_portfolios bp ON bp.bbl = mb.bbl
              WHERE lost.portfolio_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM owner_portfolios p WHERE p.id = lost.portfolio_id)
              GROUP BY mb.monitor_id, bp.portfolio_id
              ORDER BY mb.monitor_id, count(*) DESC, bp.portfolio_id) best
      WHERE m.id = best.monitor_id`,
  );
  const followed = `SELECT m.id FROM monitors m WHERE m.portfolio_id IS NOT NULL AND EXISTS (SELECT 1 FROM owner_portfolios p WHERE p.id = m.portfolio_id)`;
  const wanted = `SELECT m.id AS monitor_id, bp.bbl FROM monitors m
      CROSS JOIN LATERAL (SELECT bbl FROM building_portfolios WHERE portfolio_id = m.portfolio_id ORDER BY bbl LIMIT ${MONITOR_BBL_LIMIT}) bp
     WHERE m.id IN (${followed})`;
  await db.query(
    `DELETE FROM monitor_buildings mb WHERE mb.monitor_id IN (${followed}) AND (mb.monitor_id, mb.bbl) NOT IN (${wanted})`,
  );
  await db.query(`INSERT INTO monitor_buildings (monitor_id, bbl) ${wanted} ON CONFLICT DO NOTHING`);
  const { rowCount } = await db.query(
    `UPDATE monitors m SET bbl_count = n.count, updated_at = CASE WHEN m.bbl_count = n.count THEN m.updated_at ELSE now() END
       FROM (SELECT monitor_id, count(*)::int AS count FROM monitor_buildings WHERE monitor_id IN (${followed}) GROUP BY monitor_id) n
      WHERE m.id = n.monitor_id`,
  );
  return rowCount ?? 0;
}

/**
 * Seals every signing secret stored in clear (monitors created before encryption at rest) or under a key
 * that is no longer the first one (after a rotation of WEBHOOK_SECRET_KEY), the replaced secret of a
 * signing-secret rotation included. Idempotent; the webhook worker runs it at start.
 * `unreadable` counts secrets no configured key opens (left as they are; their deliveries fail).
 */
export async function sealStoredSecrets(pool: Pool, secrets: SecretBox): Promise<{ sealed: number; unreadable: number }> {
  let sealed = 0;
  let unreadable = 0;
  // the secret a rotation replaced is sealed like the current one while it still signs
  for (const column of ['signing_secret', 'previous_signing_secret'] as const) {
    const { rows } = await pool.query<{ id: string; stored: string }>(`SELECT id, ${column} AS stored FROM monitors WHERE ${column} IS NOT NULL`);
    for (const row of rows) {
      if (secrets.isCurrent(row.stored)) continue;
      let clear: string;
      try {
        clear = secrets.open(row.stored);
      } catch {
        unreadable += 1;
        continue;
      }
      const { rowCount } = await pool.query(`UPDATE monitors SET ${column} = $2 WHERE id = $1 AND ${column} = $3`, [row.id, secrets.seal(clear), row.stored]);
      sealed += rowCount ?? 0;
    }
  }
  return { sealed, unreadable };
}
