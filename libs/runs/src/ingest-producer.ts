import { createHash, randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Pool } from 'pg';
import { ContractQueue, DEFAULT_JOB_OPTIONS, IngestInput, JobData } from '@bhis/queue';
import { findSource, type SourceDefinition } from '@bhis/sources';
import { createRun } from './ingest-runs';

export class IngestRequestError extends Error {}

export interface EnqueueIngest {
  source: string;
  input: IngestInput;
  trigger: 'cli' | 'admin_api' | 'refresh' | 'test';
  /** Queue again even if the same input was already ingested today. */
  force?: boolean;
  scoreAfter?: boolean;
  /** Day the data was observed (status changes are dated with it); default today. */
  observedOn?: string;
  /**
   * Lower runs first (1 and up; BullMQ's job priority). A job whose source is being loaded waits as a
   * delayed job and comes back in its place by priority, where without one it would come back behind
   * every job queued meanwhile (`bhis ingest --dir` gives the largest file 1).
   */
  priority?: number;
}

export interface EnqueuedIngest {
  runId: string;
  jobId: string;
  /** False when the same run was already queued or done (the existing run is returned). */
  created: boolean;
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** What makes two requests "the same run": same source, same input (file size and time, complete or not), same day. */
async function fingerprint(request: EnqueueIngest, observedOn: string): Promise<string> {
  const { input } = request;
  const complete = input.kind !== 'download' && input.complete ? '|complete' : '';
  if (input.kind === 'file') {
    const info = await stat(input.path).catch(() => null);
    if (!info?.isFile()) throw new IngestRequestError(`No such file: ${input.path}`);
    return `file|${path.resolve(input.path)}|${info.size}|${info.mtimeMs}|${observedOn}${complete}`;
  }
  if (input.kind === 'url') return `url|${input.url}|${today()}|${observedOn}${complete}`;
  return `download|${today()}|${observedOn}`;
}

/**
 * Why a file cannot say what vanished from its source, or null: a source published in several parts
 * (the 311 requests of 2010-2019 and since 2020) has records no single file of it carries.
 */
export function completeInputProblem(source: SourceDefinition, input: IngestInput): string | null {
  if (input.kind === 'download' || !input.complete || source.parts.length === 1) return null;
  return `${source.key} is published in ${source.parts.length} parts (${source.parts.map((p) => p.part).join(', ')}): one file is not the whole source, so it cannot be loaded as complete; load it without --complete, or refresh with --download`;
}

/**
 * Queues one ingest run with a deterministic job id, so the same run is never queued twice
 * (a second request returns the first run). `force` gives the run a fresh id.
 */
export async function enqueueIngest(queue: ContractQueue<'ingest'>, pool: Pool, request: EnqueueIngest): Promise<EnqueuedIngest> {
  const source = findSource(request.source);
  if (!source) throw new IngestRequestError(`Unknown source "${request.source}"`);
  const incomplete = completeInputProblem(source, request.input);
  if (incomplete) throw new IngestRequestError(incomplete);
  if (request.input.kind === 'url' && !/^https?:\/\//.test(request.input.url)) {
    throw new IngestRequestError('The URL must be http(s)');
  }
  const observedOn = request.observedOn ?? today();
  const print = await fingerprint(request, observedOn);
  const hash = createHash('sha1').update(print).digest('hex').slice(0, 16);
  const jobId = `ingest.${request.source}.${hash}${request.force ? `.${randomUUID().slice(0, 8)}` : ''}`;

  const existing = await queue.getJob(jobId);
  if (existing && !(await existing.isFailed())) {
    return { runId: (existing.data as { runId: string }).runId, jobId, created: false };
  }
  if (existing) await existing.remove();

  const runId = randomUUID();
  const inputText =
    (request.input.kind === 'file' ? path.resolve(request.input.path) : request.input.kind === 'url' ? request.input.url : 'download') +
    (request.input.kind !== 'download' && request.input.complete ? ' (complete)' : '');
  await createRun(pool, { id: runId, source: request.source, trigger: request.trigger, input: inputText, jobId });
  const data: JobData<'ingest', 'ingest-source'> = {
    runId,
    source: request.source,
    input: request.input.kind === 'file' ? { ...request.input, path: path.resolve(request.input.path) } : request.input,
    scoreAfter: request.scoreAfter ?? false,
    observedOn,
  };
  const job = await queue.add('ingest-source', data, { ...DEFAULT_JOB_OPTIONS, jobId, ...(request.priority ? { priority: request.priority } : {}) });
  if (job.data.runId !== runId) {
    // another request queued the same run at the same moment: keep theirs
    await pool.query(`DELETE FROM ingest_runs WHERE id = $1`, [runId]);
    return { runId: job.data.runId, jobId, created: false };
  }
  return { runId, jobId, created: true };
}
