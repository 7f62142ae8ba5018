import type { Pool } from 'pg';

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
            finished_at = CASE WHEN $2 = 'retrying' THEN NULL ELSE now() END,
            duration_ms = (extract(epoch FROM now() - COALESCE(started_at, queued_at)) * 1000)::integer
      WHERE id = $1`,
    [runId, outcome.status, outcome.counts ? JSON.stringify(outcome.counts) : null, outcome.error?.slice(0, 2000) ?? null],
  );
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
