import type { Pool, PoolClient } from 'pg';
import { primaryDatasetId, SOURCES } from '@bhis/sources';
import type { IngestCounts } from './ingest-counts';
import { RUN_DURATION_MS_SQL, RUN_END_SQL } from './run-duration';

/** How far a running load is (ingest_runs.progress). */
export interface LoadProgress {
  /** `done` once the run has ended, whatever its outcome. */
  phase: 'parsing' | 'merging' | 'done';
  rows: number;
  bytes: number;
  total_bytes: number | null;
}

export type RunStatus = 'queued' | 'running' | 'retrying' | 'succeeded' | 'failed' | 'skipped' | 'cancelled';

/** Statuses a run does not leave. */
export const FINAL_RUN_STATUSES: readonly RunStatus[] = ['succeeded', 'failed', 'skipped', 'cancelled'];

export interface IngestRunRow {
  id: string;
  source: string;
  status: RunStatus;
  trigger: string;
  input: string | null;
  job_id: string | null;
  attempt: number;
  counts: Partial<IngestCounts>;
  progress: Partial<LoadProgress>;
  error: string | null;
  /** A failure's parts as data (a wrong file's columns and the source it matches best), or null. */
  error_detail: Record<string, unknown> | null;
  cancel_requested_at: Date | null;
  queued_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  duration_ms: number | null;
}

/*
 * Run and source bookkeeping: this module is the only writer of `ingest_runs` and `sources`.
 */

/** Makes sure every defined source has its row in `sources` (names, dataset ids, cadence). */
export async function syncSourceCatalog(pool: Pool): Promise<void> {
  for (const source of SOURCES) {
    const datasetId = primaryDatasetId(source);
    const url = source.parts.find((p) => p.urls)?.urls?.csv ?? null;
    await pool.query(
      `INSERT INTO sources (key, name, agency, dataset_id, url, cadence) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (key) DO UPDATE SET name = EXCLUDED.name, agency = EXCLUDED.agency, dataset_id = EXCLUDED.dataset_id,
         url = EXCLUDED.url, cadence = EXCLUDED.cadence`,
      [source.key, source.name, source.agency, datasetId, url, source.cadence],
    );
  }
}

export async function createRun(pool: Pool, run: { id?: string; source: string; trigger: string; input: string; jobId?: string }): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO ingest_runs (id, source, trigger, input, job_id) VALUES (COALESCE($1::uuid, gen_random_uuid()), $2, $3, $4, $5)
     ON CONFLICT (id) DO UPDATE SET job_id = COALESCE(EXCLUDED.job_id, ingest_runs.job_id) RETURNING id`,
    [run.id ?? null, run.source, run.trigger, run.input, run.jobId ?? null],
  );
  return rows[0].id;
}

/**
 * Starts an attempt: the quarantine of an earlier attempt of the same run is discarded. Attempts are
 * counted here (a job recovered from a dead worker is not a new BullMQ attempt, but it is a new start).
 */
export async function markRunning(pool: Pool, id: string): Promise<void> {
  await pool.query('DELETE FROM rejected_rows WHERE run_id = $1', [id]);
  await pool.query(
    `UPDATE ingest_runs SET status = 'running', attempt = CASE WHEN started_at IS NULL THEN 1 ELSE attempt + 1 END,
            started_at = now(), finished_at = NULL, error = NULL, error_detail = NULL, progress = '{}' WHERE id = $1`,
    [id],
  );
}

export async function recordProgress(pool: Pool, id: string, progress: LoadProgress): Promise<void> {
  await pool.query(`UPDATE ingest_runs SET progress = $2 WHERE id = $1`, [id, progress]);
}

/** Why a run failed, for the source's status (`sources.last_error_*`). */
export interface RunFailure {
  /** A short stable code: `header_mismatch`, `soda_field_mismatch`, `download_refused`, ... (libs/ingestion/src/failure-code.ts). */
  code: string;
  /** Retrying the same input cannot help: the daily refresh waits for the operator (a download's only). */
  permanent: boolean;
}

export async function finishRun(
  pool: Pool,
  id: string,
  outcome: { status: RunStatus; counts?: IngestCounts; error?: string; failure?: RunFailure; detail?: Record<string, unknown> },
): Promise<void> {
  const ended = FINAL_RUN_STATUSES.includes(outcome.status);
  await pool.query(
    `UPDATE ingest_runs SET status = $2, counts = COALESCE($3, counts), error = $4, error_detail = $5,
            progress = CASE WHEN $6 THEN progress || '{"phase": "done"}' ELSE progress END,
            finished_at = ${RUN_END_SQL}, duration_ms = ${RUN_DURATION_MS_SQL}
      WHERE id = $1`,
    [id, outcome.status, outcome.counts ? JSON.stringify(outcome.counts) : null, outcome.error?.slice(0, 2000) ?? null, outcome.detail ?? null, ended],
  );
  if (outcome.status === 'failed') {
    await recordSourceFailed(pool, id, outcome.error ?? 'unknown error', outcome.failure ?? { code: 'load_failed', permanent: false });
  }
}

/** What the operator reads on a failing source (`GET /api/v1/sources`, `bhis ingest --status`). */
export function failureAdvice(source: string, permanent: boolean): string {
  return permanent
    ? `Retrying cannot help, so the daily refresh leaves this source alone until an operator acts: fix the cause, then run \`bhis ingest --source ${source} --download\` (or load its complete export with \`--file F --complete\`).`
    : 'The last good data is kept; the daily refresh tries again.';
}

/** A failed run leaves its source failing: since the first failure after its last success, with the last error. */
async function recordSourceFailed(pool: Pool, runId: string, error: string, failure: RunFailure): Promise<void> {
  const { rows } = await pool.query<{ source: string }>(`SELECT source FROM ingest_runs WHERE id = $1`, [runId]);
  const source = rows[0]?.source;
  if (!source) return;
  await pool.query(
    `UPDATE sources SET status = 'failed', last_error_code = $2, last_error_message = $3, failure_permanent = $4,
            failing_since = COALESCE(failing_since, now()), last_failed_run_id = $5
      WHERE key = $1`,
    [source, failure.code, `${error.slice(0, 1800)} ${failureAdvice(source, failure.permanent)}`, failure.permanent, runId],
  );
}

/** A refresh that found the data set unchanged since it was loaded: the source is current as of now. */
export async function recordSourceUnchanged(pool: Pool, source: string): Promise<void> {
  await pool.query(`UPDATE sources SET last_refreshed_at = now(), status = 'ok', ${CLEARED_FAILURE} WHERE key = $1 AND last_run_id IS NOT NULL`, [source]);
}

const CLEARED_FAILURE = `last_error_code = NULL, last_error_message = NULL, failure_permanent = false, failing_since = NULL, last_failed_run_id = NULL`;

/** Sources whose last failure waits for the operator (the daily refresh skips them), with its message. */
export async function sourcesWaitingForOperator(pool: Pool): Promise<Map<string, string>> {
  const { rows } = await pool.query<{ key: string; message: string | null }>(`SELECT key, last_error_message AS message FROM sources WHERE failure_permanent`);
  return new Map(rows.map((r) => [r.key, r.message ?? '']));
}

/**
 * A load that is the whole run (a file or a URL) records its success in the load's own transaction:
 * a worker that dies after the commit leaves a run that a retry sees as done, never loads twice.
 */
export async function recordRunSucceeded(client: PoolClient, id: string, counts: IngestCounts): Promise<void> {
  await client.query(
    `UPDATE ingest_runs SET status = 'succeeded', counts = $2, error = NULL, error_detail = NULL,
            progress = progress || '{"phase": "done"}', finished_at = ${RUN_END_SQL},
            duration_ms = ${RUN_DURATION_MS_SQL}
      WHERE id = $1`,
    [id, JSON.stringify(counts)],
  );
}

/**
 * Keeps the metadata of the data set a part of the run was read with, beside the run, under the part's
 * name (`metadata` is stored as JSON: the ingester's `DatasetMetadata`).
 */
export async function recordDatasetMetadata(pool: Pool, runId: string, part: string, metadata: object): Promise<void> {
  await pool.query(`UPDATE ingest_runs SET dataset_metadata = dataset_metadata || jsonb_build_object($2::text, $3::jsonb) WHERE id = $1`, [
    runId,
    part,
    JSON.stringify(metadata),
  ]);
}

/** The outcome of a run that already ended well (succeeded or skipped), or null. */
export async function finishedRun(pool: Pool, id: string): Promise<{ status: 'succeeded'; counts: IngestCounts } | { status: 'skipped'; reason: string } | null> {
  const { rows } = await pool.query<{ status: RunStatus; counts: IngestCounts; error: string | null }>(
    `SELECT status, counts, error FROM ingest_runs WHERE id = $1 AND status IN ('succeeded', 'skipped')`,
    [id],
  );
  const row = rows[0];
  if (!row) return null;
  return row.status === 'succeeded' ? { status: 'succeeded', counts: row.counts } : { status: 'skipped', reason: row.error ?? '' };
}

export async function getRun(pool: Pool, id: string): Promise<IngestRunRow | null> {
  const { rows } = await pool.query<IngestRunRow>(`SELECT * FROM ingest_runs WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

export async function latestRuns(pool: Pool): Promise<(IngestRunRow & { last_refreshed_at: Date | null; records: string })[]> {
  const { rows } = await pool.query(
    `SELECT r.*, s.key AS source, s.last_refreshed_at, s.records
       FROM sources s LEFT JOIN LATERAL (
         SELECT * FROM ingest_runs r WHERE r.source = s.key ORDER BY r.queued_at DESC LIMIT 1) r ON true
      ORDER BY s.key`,
  );
  return rows;
}

/** True when the source was never loaded successfully (a first load has nothing to compare with). */
export async function neverLoaded(client: PoolClient, source: string): Promise<boolean> {
  const { rows } = await client.query<{ first: boolean }>(`SELECT last_run_id IS NULL AS first FROM sources WHERE key = $1`, [source]);
  return rows[0]?.first ?? false;
}

/** A successful load, inside the load's own transaction: the source is fresh as of now. */
export async function recordSourceLoaded(
  client: PoolClient,
  source: string,
  load: { runId: string; latestRecordDate: string | null; recordsAdded: number },
): Promise<void> {
  await client.query(
    `UPDATE sources SET last_refreshed_at = now(), status = 'ok', last_run_id = $2,
            latest_record_date = GREATEST(latest_record_date, $3::date), records = records + $4, ${CLEARED_FAILURE}
      WHERE key = $1`,
    [source, load.runId, load.latestRecordDate, load.recordsAdded],
  );
}

/** The publisher's last-update stamp of the data set as loaded (unchanged data sets are skipped next time). */
export async function recordRowsUpdatedAt(pool: Pool, source: string, rowsUpdatedAt: number | null): Promise<void> {
  await pool.query(`UPDATE sources SET rows_updated_at = $2 WHERE key = $1`, [source, rowsUpdatedAt]);
}

/** The columns of a listed run: all but the data set metadata it was read with (a document per part; `getRun` has it). */
const LISTED_RUN_COLUMNS = `id, source, status, trigger, input, job_id, attempt, counts, progress, error, error_detail, cancel_requested_at,
  queued_at, started_at, finished_at, duration_ms`;

/** One page of runs, newest first (the admin API's list). */
export async function listRuns(
  pool: Pool,
  filter: { source?: string; status?: RunStatus; limit: number; before?: { queuedAt: string; id: string } },
): Promise<IngestRunRow[]> {
  const { rows } = await pool.query<IngestRunRow>(
    `SELECT ${LISTED_RUN_COLUMNS} FROM ingest_runs
      WHERE ($1::text IS NULL OR source = $1) AND ($2::text IS NULL OR status = $2)
        AND ($3::timestamptz IS NULL OR (queued_at, id) < ($3::timestamptz, $4::uuid))
      ORDER BY queued_at DESC, id DESC LIMIT $5`,
    [filter.source ?? null, filter.status ?? null, filter.before?.queuedAt ?? null, filter.before?.id ?? null, filter.limit],
  );
  return rows;
}

/** What a cancel request did: a run that had not started is cancelled at once; a running one stops at its next checkpoint. */
export type CancelOutcome = { kind: 'cancelled' | 'cancelling'; run: IngestRunRow } | { kind: 'finished'; run: IngestRunRow } | { kind: 'not_found' };

/**
 * Cancels a queued (or retrying) run, or asks a running one to stop: it stops before its merge
 * transaction begins, so the data stays as it was (ingest-service.ts). A run that has ended is left as it is.
 */
export async function requestCancel(pool: Pool, id: string): Promise<CancelOutcome> {
  const { rows } = await pool.query<IngestRunRow>(
    `UPDATE ingest_runs SET
            status = CASE WHEN status IN ('queued', 'retrying') THEN 'cancelled' ELSE status END,
            error = CASE WHEN status IN ('queued', 'retrying') THEN 'cancelled by an operator before it started' ELSE error END,
            finished_at = CASE WHEN status IN ('queued', 'retrying') THEN now() ELSE finished_at END,
            progress = CASE WHEN status IN ('queued', 'retrying') THEN progress || '{"phase": "done"}' ELSE progress END,
            cancel_requested_at = COALESCE(cancel_requested_at, now())
      WHERE id = $1 AND status NOT IN ('succeeded', 'failed', 'skipped', 'cancelled')
      RETURNING *`,
    [id],
  );
  if (rows[0]) return { kind: rows[0].status === 'cancelled' ? 'cancelled' : 'cancelling', run: rows[0] };
  const run = await getRun(pool, id);
  return run ? { kind: 'finished', run } : { kind: 'not_found' };
}

/** True once an operator asked the run to stop. */
export async function cancelRequested(pool: Pool, id: string): Promise<boolean> {
  const { rows } = await pool.query<{ asked: boolean }>(`SELECT cancel_requested_at IS NOT NULL AS asked FROM ingest_runs WHERE id = $1`, [id]);
  return rows[0]?.asked ?? false;
}

/** A run's quarantined rows, in file order (`bhis rejected --run ID`). */
export async function rejectedRows(
  pool: Pool,
  runId: string,
  page: { limit: number; afterId?: string; reason?: string },
): Promise<{ id: string; line_number: number | null; reason: string; raw: string }[]> {
  const { rows } = await pool.query(
    `SELECT id::text, line_number, reason, raw FROM rejected_rows
      WHERE run_id = $1 AND ($2::bigint IS NULL OR id > $2::bigint) AND ($3::text IS NULL OR reason = $3)
      ORDER BY id LIMIT $4`,
    [runId, page.afterId ?? null, page.reason ?? null, page.limit],
  );
  return rows;
}
