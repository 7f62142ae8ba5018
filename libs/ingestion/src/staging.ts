import type { Pool } from 'pg';
import { CopyWriter } from '@bhis/db';

/**
 * Staging tables of one run: UNLOGGED tables named after the run, fed by COPY (one connection per
 * table, since a connection runs one COPY at a time) and merged set-based in one transaction.
 * A killed run leaves them behind; `sweepStaging` drops those of runs that are no longer running.
 */
const COLUMNS = {
  // the codes have the types of events (migration 1763702400000-event-code-types): a value that is not a label fails the COPY
  events: `line_no integer NOT NULL, bbl char(10) NOT NULL, source event_source NOT NULL, source_record_id text NOT NULL,
      event_type event_type NOT NULL, category event_category NOT NULL, severity event_severity NOT NULL, status event_status,
      occurred_on date, closed_on date, description text, attributes jsonb NOT NULL, record bytea, scoring_excluded boolean NOT NULL,
      file_rows integer NOT NULL, lists_ordered boolean NOT NULL, duplicate_of_hpd_complaint text, line_hash bigint`,
  // lines not parsed because their hash is stored already (stage-records.ts): the records they stand for were seen
  unchanged: `line_no integer NOT NULL, line_hash bigint NOT NULL`,
  rejected: `line_no integer, reason text NOT NULL, raw text NOT NULL`,
  pluto: `line_no integer NOT NULL, bbl char(10) NOT NULL, borough smallint NOT NULL, block integer NOT NULL, lot integer NOT NULL,
      house_number text, street_name text, address text, address_search text, zipcode text, residential_units integer,
      total_units integer, year_built integer, building_class text, owner_name text, latitude double precision,
      longitude double precision, num_buildings integer, num_floors numeric`,
  hpd_buildings: `line_no integer NOT NULL, bbl char(10) NOT NULL, bin integer, hpd_building_id integer NOT NULL, legal_units integer,
      stories integer, lifecycle text, record_status text, registration_id integer, house_number text, street_name text,
      address_search text, zipcode text, management_program text`,
  registrations: `line_no integer NOT NULL, registration_id integer NOT NULL, bbl char(10) NOT NULL, bin integer,
      hpd_building_id integer, last_registration_date date, registration_end_date date`,
  contacts: `line_no integer NOT NULL, contact_id integer NOT NULL, registration_id integer NOT NULL, contact_type text,
      name text, business_address text`,
} as const;

export type StagingKind = keyof typeof COLUMNS;
export const STAGING_PREFIX = 'ingest_stg_';

export function stagingTable(kind: StagingKind, runId: string): string {
  return `${STAGING_PREFIX}${kind}_${runId.replace(/-/g, '')}`;
}

/**
 * Opens a COPY stream into one staging table of a run, creating (or recreating) the table first
 * unless `created` (a file staged on several threads: createStaging made them all).
 */
export function openStaging(pool: Pool, kind: StagingKind, runId: string, created = false): Promise<CopyWriter> {
  const table = stagingTable(kind, runId);
  return CopyWriter.open(pool, table, created ? undefined : (client) => createTable(client, kind, table));
}

async function createTable(db: Pick<Pool, 'query'>, kind: StagingKind, table: string): Promise<void> {
  await db.query(`DROP TABLE IF EXISTS ${table}`);
  await db.query(`CREATE UNLOGGED TABLE ${table} (${COLUMNS[kind]})`);
}

/** The staging table of `kind` of a run, created when it does not exist yet (a file staged on several threads has them all). */
export async function ensureStaging(pool: Pick<Pool, 'query'>, kind: StagingKind, runId: string): Promise<string> {
  const table = stagingTable(kind, runId);
  await pool.query(`CREATE UNLOGGED TABLE IF NOT EXISTS ${table} (${COLUMNS[kind]})`);
  return table;
}

/** Creates (or recreates) every staging table of a run, for threads that COPY into the same tables. */
export async function createStaging(pool: Pool, runId: string): Promise<void> {
  for (const kind of Object.keys(COLUMNS) as StagingKind[]) await createTable(pool, kind, stagingTable(kind, runId));
}

/** Drops the staging tables of one run (all kinds), on a pool or inside a client's transaction. */
export async function dropStaging(db: Pick<Pool, 'query'>, runId: string): Promise<void> {
  await db.query(`DROP TABLE IF EXISTS ${(Object.keys(COLUMNS) as StagingKind[]).map((kind) => stagingTable(kind, runId)).join(', ')}`);
}

/** Drops staging tables left behind by runs that are no longer running (killed workers). */
export async function sweepStaging(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ tablename: string }>(
    `SELECT tablename FROM pg_tables t
      WHERE schemaname = current_schema() AND tablename LIKE $1
        AND NOT EXISTS (
          SELECT 1 FROM ingest_runs r
           WHERE r.status = 'running' AND r.started_at > now() - interval '6 hours'
             AND t.tablename LIKE '%' || replace(r.id::text, '-', ''))`,
    [`${STAGING_PREFIX}%`],
  );
  for (const { tablename } of rows) await pool.query(`DROP TABLE IF EXISTS ${tablename}`);
  return rows.length;
}
