import { createHash, randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { ContractQueue, DEFAULT_JOB_OPTIONS } from '@bhis/queue';
import { createScoringRun, deleteScoringRun } from './scoring-runs';

export interface EnqueueScoring {
  kind: 'full' | 'incremental';
  asOf?: string;
  bbls?: string[];
  trigger: 'cli' | 'admin_api' | 'ingest' | 'refresh' | 'test';
  force?: boolean;
}

/**
 * Queues a scoring run. The job id is deterministic for (kind, as-of, BBLs, day) so the same run is
 * not queued twice; an incremental run asked for while another is queued joins it.
 */
export async function enqueueScoring(queue: ContractQueue<'scoring'>, pool: Pool, request: EnqueueScoring): Promise<{ runId: string; jobId: string; created: boolean }> {
  const asOf = request.asOf ?? new Date().toISOString().slice(0, 10);
  const key = createHash('sha1')
    .update([request.kind, asOf, (request.bbls ?? []).join(','), new Date().toISOString().slice(0, 10)].join('|'))
    .digest('hex')
    .slice(0, 16);
  const jobId = `score.${request.kind}.${key}${request.force ? `.${randomUUID().slice(0, 8)}` : ''}`;
  const existing = await queue.getJob(jobId);
  if (existing) {
    const state = await existing.getState();
    if (state === 'waiting' || state === 'delayed' || state === 'active' || state === 'prioritized' || (state === 'completed' && !request.force)) {
      return { runId: (existing.data as { runId: string }).runId, jobId, created: false };
    }
    await existing.remove();
  }
  const runId = randomUUID();
  await createScoringRun(pool, { id: runId, kind: request.bbls?.length ? 'incremental' : request.kind, asOf, trigger: request.trigger, jobId });
  const job = await queue.add('score', { runId, kind: request.kind, asOf, bbls: request.bbls }, { ...DEFAULT_JOB_OPTIONS, jobId });
  if (job.data.runId !== runId) {
    await deleteScoringRun(pool, runId);
    return { runId: job.data.runId, jobId, created: false };
  }
  return { runId, jobId, created: true };
}

/** Queues a backfill of the history: one point per month for the last `months` months before `asOf`. */
export async function enqueueBackfill(queue: ContractQueue<'scoring'>, pool: Pool, request: { months: number; asOf?: string; trigger: EnqueueScoring['trigger'] }): Promise<{ runId: string; jobId: string; asOfDates: string[] }> {
  const end = new Date(`${request.asOf ?? new Date().toISOString().slice(0, 10)}T00:00:00Z`);
  const asOfDates: string[] = [];
  for (let i = request.months; i >= 1; i--) {
    const d = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() - i, Math.min(end.getUTCDate(), 28)));
    asOfDates.push(d.toISOString().slice(0, 10));
  }
  const runId = randomUUID();
  const jobId = `backfill.${createHash('sha1').update(asOfDates.join(',')).digest('hex').slice(0, 16)}`;
  await createScoringRun(pool, { id: runId, kind: 'backfill', asOf: asOfDates[asOfDates.length - 1], trigger: request.trigger, jobId });
  const existing = await queue.getJob(jobId);
  if (existing) await existing.remove().catch(() => undefined);
  await queue.add('backfill', { runId, asOfDates }, { ...DEFAULT_JOB_OPTIONS, jobId });
  return { runId, jobId, asOfDates };
}
