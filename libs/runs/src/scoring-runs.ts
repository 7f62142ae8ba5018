import type { Pool, PoolClient } from 'pg';
import { SCORER_ID } from '@bhis/domain';
import { RUN_DURATION_MS_SQL, RUN_END_SQL } from './run-duration';

/** What one scoring run did; stored in scoring_runs.counts. */
export interface ScoringCounts {
  buildings: number;
  failed: number;
  failures: { bbl: string; error: string }[];
  crossings: number;
  grades: Record<string, number>;
  as_of: string;
  kind: 'full' | 'incremental';
  write_current: boolean;
}

export async function markScoringRunning(pool: Pool, runId: string): Promise<void> {
  await pool.query(`UPDATE scoring_runs SET status = 'running', started_at = now(), finished_at = NULL, error = NULL WHERE id = $1`, [runId]);
}

export async function recordScoringProgress(pool: Pool, runId: string, progress: { scored: number; total: number }): Promise<void> {
  await pool.query(`UPDATE scoring_runs SET counts = jsonb_set(counts, '{progress}', $2::jsonb) WHERE id = $1`, [runId, JSON.stringify(progress)]);
}

export async function finishScoringRun(
  pool: Pool,
  runId: string,
  outcome: { status: 'succeeded' | 'failed' | 'retrying'; counts?: ScoringCounts | Record<string, unknown>; error?: string },
): Promise<void> {
  await pool.query(
    `UPDATE scoring_runs SET status = $2, counts = COALESCE($3::jsonb, counts), error = $4,
            finished_at = CASE WHEN $2 = 'retrying' THEN NULL ELSE ${RUN_END_SQL} END,
            duration_ms = ${RUN_DURATION_MS_SQL}
      WHERE id = $1`,
    [runId, outcome.status, outcome.counts ? JSON.stringify(outcome.counts) : null, outcome.error?.slice(0, 2000) ?? null],
  );
}

/** A run split into parts keeps its plan (clock, context, ranges) so that every part scores alike; its progress starts at 0. */
export async function recordScoringPlan(client: PoolClient, runId: string, plan: object, progress: { total: number; parts: number }): Promise<void> {
  await client.query(
    `UPDATE scoring_runs SET plan = $2, counts = jsonb_build_object('progress', jsonb_build_object('scored', 0, 'total', $3::int, 'parts', $4::int))
      WHERE id = $1`,
    [runId, JSON.stringify(plan), progress.total, progress.parts],
  );
}

/** A run split into parts: buildings scored by all its parts so far. Only while it runs (the finish writes the final counts). */
export async function recordScoringPartsProgress(pool: Pool, runId: string): Promise<void> {
  await pool.query(
    `UPDATE scoring_runs r SET counts = jsonb_set(r.counts, '{progress}', jsonb_build_object(
            'scored', (SELECT COALESCE(sum(p.scored), 0) FROM scoring_run_parts p WHERE p.run_id = r.id),
            'total', (r.plan->>'total')::int,
            'parts', (r.plan->>'parts')::int,
            'parts_done', (SELECT count(*) FROM scoring_run_parts p WHERE p.run_id = r.id AND p.status = 'done')))
      WHERE r.id = $1 AND r.status IN ('running', 'retrying')`,
    [runId],
  );
}

/** A part of a retrying run starts again: the run is running again. */
export async function resumeScoringRun(pool: Pool, runId: string): Promise<void> {
  await pool.query(`UPDATE scoring_runs SET status = 'running', error = NULL WHERE id = $1 AND status = 'retrying'`, [runId]);
}

/** A part of a running run failed and will be retried: the run says so until a part starts again. */
export async function markScoringRunRetrying(pool: Pool, runId: string, error: string): Promise<void> {
  await pool.query(`UPDATE scoring_runs SET status = 'retrying', error = $2 WHERE id = $1 AND status = 'running'`, [runId, error.slice(0, 2000)]);
}

/** A run that cannot end well is failed, unless it has already succeeded. */
export async function failScoringRun(pool: Pool, runId: string, error: string): Promise<void> {
  await pool.query(
    `UPDATE scoring_runs SET status = 'failed', error = $2, finished_at = ${RUN_END_SQL}, duration_ms = ${RUN_DURATION_MS_SQL}
      WHERE id = $1 AND status <> 'succeeded'`,
    [runId, error.slice(0, 2000)],
  );
}

/**
 * A run whose scores are switched in records its success in the switch transaction: a finish retried
 * after the commit finds the run succeeded, with its counts, and does not switch again.
 */
export async function recordScoringRunSucceeded(client: PoolClient, runId: string, counts: ScoringCounts & { parts?: number }): Promise<void> {
  await client.query(
    `UPDATE scoring_runs SET status = 'succeeded', counts = $2, error = NULL, finished_at = ${RUN_END_SQL}, duration_ms = ${RUN_DURATION_MS_SQL}
      WHERE id = $1`,
    [runId, JSON.stringify(counts)],
  );
}

/** Creates the record of a queued run of the current scorer (before its job is added). */
export async function createScoringRun(
  pool: Pool,
  run: { id: string; kind: 'full' | 'incremental' | 'backfill'; asOf: string; trigger: string; jobId: string },
): Promise<void> {
  await pool.query(
    `INSERT INTO scoring_runs (id, kind, scorer_id, as_of, trigger, job_id) VALUES ($1, $2, $3, $4, $5, $6)`,
    [run.id, run.kind, SCORER_ID, run.asOf, run.trigger, run.jobId],
  );
}

/** Removes the record of a run whose job was never added (another request's job took its place). */
export async function deleteScoringRun(pool: Pool, runId: string): Promise<void> {
  await pool.query(`DELETE FROM scoring_runs WHERE id = $1`, [runId]);
}

export interface ScoringRunRow {
  id: string;
  kind: string;
  scorer_id: string;
  as_of: string;
  status: string;
  trigger: string;
  counts: Record<string, unknown>;
  error: string | null;
  queued_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  duration_ms: number | null;
}

export async function getScoringRun(pool: Pool, runId: string): Promise<ScoringRunRow | null> {
  const { rows } = await pool.query<ScoringRunRow>(
    `SELECT id, kind, scorer_id, to_char(as_of, 'YYYY-MM-DD') AS as_of, status, trigger, counts, error, queued_at, started_at, finished_at, duration_ms
       FROM scoring_runs WHERE id = $1`,
    [runId],
  );
  return rows[0] ?? null;
}
