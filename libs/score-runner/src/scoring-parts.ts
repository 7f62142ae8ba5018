import type { Pool, PoolClient } from 'pg';
import { inTransaction, sessionLock, SessionLock } from '@bhis/db';
import type { SourceFreshnessMap } from '@bhis/scoring';
import { combineRanges, dropRunStaging, RunStart, ScoredRange, scoreRange, stagingTables, startRun, switchInScores } from './scoring-run';
import { failScoringRun, markScoringRunRetrying, recordScoringPartsProgress, recordScoringPlan, recordScoringRunSucceeded, resumeScoringRun, ScoringCounts } from '@bhis/runs';

/**
 * A run split into parts by BBL range, so that every scoring worker (or scoring process, see
 * `SCORING_PROCESSES`) takes parts of one run. Full runs are always planned so; incremental runs of
 * the buildings marked changed when they are large enough for two parts (`partsPay`), such as the
 * rescoring after a daily refresh. Incremental runs of given BBLs are scored in one job.
 * 1. the plan (once per run): the run's start, read once so every part scores with the same clock
 *    and context, and its parts: ranges of about equal numbers of targets in BBL order;
 * 2. the parts, each scored into a staging table of its own (a retried part recreates it, so a
 *    building is staged once whatever the retries);
 * 3. the finish, once every part is done: the peer pass over the whole run and the one switch
 *    transaction of a single-process run (scoring-run.ts), which also records the run as succeeded.
 */

/** Below this, a part costs more in coordination than it saves. */
export const MIN_PART_BUILDINGS = 250;

type PartedKind = 'full' | 'incremental';

interface StoredPlan {
  /** absent from the plans of runs before incremental runs were split: those are full runs */
  kind?: PartedKind;
  startedAt: string;
  asOf: string;
  parts: number;
  total: number;
  sources: SourceFreshnessMap;
  propensityByZip: [string, number][];
  /** absent from the plans of runs before settled histories: those read all the events */
  settledHorizon?: string | null;
}

export interface RunPlan {
  kind: PartedKind;
  start: RunStart;
  asOf: string;
  parts: number;
  total: number;
}

function fromStored(plan: StoredPlan): RunPlan {
  return {
    kind: plan.kind ?? 'full',
    start: {
      startedAt: plan.startedAt,
      context: { asOf: plan.asOf, sources: plan.sources, propensityByZip: new Map(plan.propensityByZip), settledHorizon: plan.settledHorizon ?? null },
    },
    asOf: plan.asOf,
    parts: plan.parts,
    total: plan.total,
  };
}

export async function loadPlan(pool: Pool | PoolClient, runId: string): Promise<RunPlan | null> {
  const { rows } = await pool.query<{ plan: StoredPlan | null }>(`SELECT plan FROM scoring_runs WHERE id = $1`, [runId]);
  return rows[0]?.plan ? fromStored(rows[0].plan) : null;
}

/** The number of parts for a city of `buildings`: `maxParts`, fewer for a small city, at least one. */
export function partCount(buildings: number, maxParts: number): number {
  return Math.max(1, Math.min(maxParts, Math.floor(buildings / MIN_PART_BUILDINGS)));
}

/** The targets of a run of `kind` that started at `$1`: every building, or those marked changed before it started. */
function targetsSql(kind: PartedKind): string {
  return kind === 'full'
    ? `SELECT bbl FROM buildings`
    : `SELECT d.bbl FROM dirty_buildings d JOIN buildings b ON b.bbl = d.bbl WHERE d.marked_at <= $1::timestamptz`;
}

/**
 * Whether an incremental run of the buildings marked changed is split into parts: it was planned so
 * before (a retried job), or its targets fill at least two parts.
 */
export async function partsPay(pool: Pool, runId: string, maxParts: number): Promise<boolean> {
  if (await loadPlan(pool, runId)) return true;
  const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM dirty_buildings d JOIN buildings b ON b.bbl = d.bbl`);
  return partCount(rows[0].n, maxParts) > 1;
}

/** Plans a run once: a retried plan finds the plan it made before. */
export async function planRun(pool: Pool, runId: string, request: { kind: PartedKind; asOf: string; maxParts: number }): Promise<RunPlan> {
  const existing = await loadPlan(pool, runId);
  if (existing) return existing;
  const { kind, asOf } = request;
  // the table of an earlier attempt scored in one job, before the run was large enough for parts
  await dropRunStaging(pool, runId);
  // a planned run writes the current scores (finishPartedRun)
  const start = await startRun(pool, asOf, { settled: true, recountPropensity: kind === 'full' });
  return inTransaction(pool, async (client) => {
    const locked = await client.query<{ plan: StoredPlan | null }>(`SELECT plan FROM scoring_runs WHERE id = $1 FOR UPDATE`, [runId]);
    if (locked.rows.length === 0) throw new Error(`scoring run ${runId} does not exist`);
    const planned = locked.rows[0].plan;
    // planned meanwhile by another worker: its plan stands
    if (planned) return fromStored(planned);
    const targets = targetsSql(kind);
    const values = kind === 'full' ? [] : [start.startedAt];
    const total = (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${targets}) t`, values)).rows[0].n;
    const parts = partCount(total, request.maxParts);
    // the last BBL of each of `parts` slices of equal size; the last part has no end (buildings added since are in it)
    const bounds = await client.query<{ last: string }>(
      `SELECT max(bbl)::text AS last FROM (SELECT bbl, ntile($${values.length + 1}) OVER (ORDER BY bbl) AS k FROM (${targets}) t) t GROUP BY k ORDER BY k`,
      [...values, parts],
    );
    const lasts = bounds.rows.map((r) => r.last);
    const count = Math.max(1, lasts.length);
    for (let part = 0; part < count; part++) {
      await client.query(`INSERT INTO scoring_run_parts (run_id, part, after_bbl, last_bbl) VALUES ($1, $2, $3, $4)`, [
        runId,
        part,
        part === 0 ? '' : lasts[part - 1],
        part === count - 1 ? null : lasts[part],
      ]);
    }
    const stored: StoredPlan = {
      kind,
      startedAt: start.startedAt,
      asOf,
      parts: count,
      total,
      sources: start.context.sources,
      propensityByZip: [...start.context.propensityByZip.entries()],
      settledHorizon: start.context.settledHorizon,
    };
    await recordScoringPlan(client, runId, stored, { total, parts: count });
    return fromStored(stored);
  });
}

export async function allPartsDone(pool: Pool, runId: string): Promise<boolean> {
  const { rows } = await pool.query<{ open: number; n: number }>(
    `SELECT count(*) FILTER (WHERE status <> 'done')::int AS open, count(*)::int AS n FROM scoring_run_parts WHERE run_id = $1`,
    [runId],
  );
  return rows[0].n > 0 && rows[0].open === 0;
}

export type PartOutcome = 'scored' | 'already-scored' | 'run-ended';

/**
 * Scores one part of a planned run (the caller holds the part's lock). A part found done is not scored
 * again; a part of a run that has ended (failed, or finished) is left alone.
 */
export async function scorePart(pool: Pool, runId: string, part: number, options: { chunkSize?: number } = {}): Promise<PartOutcome> {
  const { rows } = await pool.query<{ run_status: string; status: string; after_bbl: string; last_bbl: string | null }>(
    `SELECT r.status AS run_status, p.status, p.after_bbl, p.last_bbl
       FROM scoring_run_parts p JOIN scoring_runs r ON r.id = p.run_id WHERE p.run_id = $1 AND p.part = $2`,
    [runId, part],
  );
  const row = rows[0];
  if (!row) throw new Error(`scoring run ${runId} has no part ${part}`);
  if (row.run_status === 'failed' || row.run_status === 'succeeded') return 'run-ended';
  if (row.status === 'done') return 'already-scored';
  const plan = await loadPlan(pool, runId);
  if (!plan) throw new Error(`scoring run ${runId} has parts but no plan`);
  await pool.query(
    `UPDATE scoring_run_parts SET status = 'running', attempt = attempt + 1, scored = 0, started_at = now(), finished_at = NULL
      WHERE run_id = $1 AND part = $2`,
    [runId, part],
  );
  await resumeScoringRun(pool, runId);
  let lastWrite = 0;
  const scored = await scoreRange(pool, {
    selection: { kind: plan.kind },
    start: plan.start,
    range: { after: row.after_bbl, last: row.last_bbl },
    table: stagingTables(runId, plan.parts).scores[part],
    chunkSize: options.chunkSize,
    onChunk: (n) => {
      if (Date.now() - lastWrite < 1000) return;
      lastWrite = Date.now();
      void pool
        .query(`UPDATE scoring_run_parts SET scored = $3 WHERE run_id = $1 AND part = $2 AND status = 'running'`, [runId, part, n])
        .then(() => recordScoringPartsProgress(pool, runId))
        .catch(() => undefined);
    },
  });
  const done = await pool.query<{ run_status: string }>(
    `UPDATE scoring_run_parts p SET status = 'done', scored = $3, counts = $4, finished_at = now()
       FROM scoring_runs r WHERE r.id = p.run_id AND p.run_id = $1 AND p.part = $2 RETURNING r.status AS run_status`,
    [runId, part, scored.buildings, JSON.stringify(scored)],
  );
  // another part failed its last attempt while this one was scored: nothing will read this table
  if (done.rows[0]?.run_status === 'failed') {
    await pool.query(`DROP TABLE IF EXISTS ${stagingTables(runId, plan.parts).scores[part]}`);
    return 'run-ended';
  }
  await recordScoringPartsProgress(pool, runId);
  return 'scored';
}

/** A part that failed and will be retried: the run says so until a part starts again. */
export async function recordPartRetrying(pool: Pool, runId: string, part: number, error: string): Promise<void> {
  await pool.query(`UPDATE scoring_run_parts SET status = 'retrying' WHERE run_id = $1 AND part = $2 AND status = 'running'`, [runId, part]);
  await markScoringRunRetrying(pool, runId, error);
}

/** A run that cannot end well (a part or the finish failed its last attempt): failed, its staging dropped. */
export async function failPartedRun(pool: Pool, runId: string, error: string): Promise<void> {
  await failScoringRun(pool, runId, error);
  await dropRunStaging(pool, runId);
}

/**
 * Ends a planned run whose parts are all done (the caller holds the run's finish lock): the switch
 * transaction records the run as succeeded with its counts, so a finish retried after its commit
 * returns the recorded counts instead of switching again.
 */
export async function finishPartedRun(pool: Pool, runId: string): Promise<ScoringCounts> {
  const run = await pool.query<{ status: string; counts: ScoringCounts }>(`SELECT status, counts FROM scoring_runs WHERE id = $1`, [runId]);
  if (run.rows[0]?.status === 'succeeded') return run.rows[0].counts;
  if (run.rows[0]?.status === 'failed') throw new Error(`scoring run ${runId} has failed`);
  const plan = await loadPlan(pool, runId);
  if (!plan) throw new Error(`scoring run ${runId} has no plan`);
  const parts = await pool.query<{ status: string; counts: ScoredRange | null }>(
    `SELECT status, counts FROM scoring_run_parts WHERE run_id = $1 ORDER BY part`,
    [runId],
  );
  const open = parts.rows.filter((p) => p.status !== 'done' || !p.counts).length;
  if (open > 0 || parts.rows.length !== plan.parts) throw new Error(`scoring run ${runId}: ${open} of ${plan.parts} parts are not done`);
  const scored = combineRanges(parts.rows.map((p) => p.counts as ScoredRange));
  return switchInScores(
    pool,
    {
      runId,
      kind: plan.kind,
      asOf: plan.asOf,
      writeCurrent: true,
      startedAt: plan.start.startedAt,
      tables: stagingTables(runId, plan.parts).scores,
      beforeCommit: (client, counts) => recordScoringRunSucceeded(client, runId, { ...counts, parts: plan.parts }),
    },
    scored,
  );
}

/** Advisory lock classes of a part ('bhsp') and of a run's finish ('bhsf'): one worker at a time on each. */
const PART_LOCK_CLASS = 0x62687370;
const FINISH_LOCK_CLASS = 0x62687366;

/** Held while a worker scores a part: a job taken over from a worker that only stalled waits for it. */
export function lockPart(pool: Pool, runId: string, part: number): Promise<SessionLock> {
  return sessionLock(pool, PART_LOCK_CLASS, `${runId}:${part}`, { wait: false, busyMessage: `part ${part} of scoring run ${runId} is being scored` });
}

export function lockFinish(pool: Pool, runId: string): Promise<SessionLock> {
  return sessionLock(pool, FINISH_LOCK_CLASS, runId, { wait: false, busyMessage: `scoring run ${runId} is being finished` });
}
