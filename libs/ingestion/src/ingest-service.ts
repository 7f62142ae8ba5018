import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Pool } from 'pg';
import type { IngestInput } from '@bhis/queue';
import { type ClosestSource, closestSource, getSource, HeaderMismatchError, SodaFieldMismatchError, sodaFieldMap, SourceDefinition } from '@bhis/sources';
import { loadSource, SuspiciousDownloadError } from './load-source';
import type { LoadInput, SplitStaging } from './staged-file';
import { fieldNameMap } from './dataset-metadata';
import { lockRun } from './run-lock';
import { type DownloadPolicy, fetchChecked } from './checked-fetch';
import { PermanentDownloadError, SocrataClient } from './socrata';
import { sweepStaging } from './staging';
import { describeLoadFailure } from './load-failure';
import { failureCode } from './failure-code';
import {
  cancelRequested,
  emptyCounts,
  finishedRun,
  getRun,
  finishRun,
  IngestCounts,
  LoadProgress,
  markRunning,
  recordDatasetMetadata,
  recordProgress,
  recordRowsUpdatedAt,
  completeInputProblem,
  recordSourceUnchanged,
} from '@bhis/runs';
import { PORTFOLIO_SOURCES, rebuildPortfolios } from './portfolio-graph';

/** A local file is read in chunks this large: each goes to the staging thread as one message, acknowledged once parsed (staging-thread.ts). */
const READ_CHUNK_BYTES = 1 << 20;

export interface RunRequest {
  runId: string;
  source: string;
  input: IngestInput;
  observedOn: string;
  /** True on the last attempt: a failure then is final. */
  lastAttempt: boolean;
  /** Wait while another worker executes the same run (default); false throws RunBusyError instead. */
  waitForRun?: boolean;
  onProgress?: (progress: LoadProgress) => void;
}

export type RunResult = { status: 'succeeded'; counts: IngestCounts } | { status: 'skipped'; reason: string };

/**
 * A failure that retrying the run cannot fix (drifted header, a column the metadata does not place,
 * missing file, 404, truncated download). Metadata that is malformed or disagrees with the rows is
 * retried: a proxy or the city's own update may serve a good one minutes later.
 */
export class PermanentIngestError extends Error {}

/** An operator cancelled the run (`POST /admin/ingest/{id}/cancel`); it is not retried. */
export class RunCancelledError extends Error {
  constructor() {
    super('cancelled by an operator; the source keeps the data it had before the run');
  }
}

/** What a failure is, as data beside its message: a wrong file's columns and the source its header matches best. */
function failureDetail(error: unknown): Record<string, unknown> | undefined {
  if (!(error instanceof HeaderMismatchError)) return undefined;
  const closest = error.header.length > 0 ? closestSource(error.header) : null;
  return {
    source: error.source,
    part: error.part,
    missing_columns: error.missing,
    unexpected_columns: error.unexpected,
    closest_source: closest && closest.source !== error.source ? closest : null,
  };
}

/** The message of a failure, with the source a wrong file's header matches best when that is another source. */
function failureMessage(error: unknown, detail: Record<string, unknown> | undefined): string {
  const message = describeLoadFailure(error);
  const closest = detail?.closest_source as ClosestSource | null | undefined;
  if (!closest) return message;
  return `${message}. The file looks like one of ${closest.source} (${closest.part}: ${closest.matched} of its ${closest.columns} columns); load it with --source ${closest.source}`;
}

function isPermanent(error: unknown): boolean {
  return (
    error instanceof PermanentIngestError ||
    error instanceof HeaderMismatchError ||
    error instanceof PermanentDownloadError ||
    error instanceof SuspiciousDownloadError ||
    error instanceof SodaFieldMismatchError ||
    (error as { code?: string }).code === 'ENOENT'
  );
}

function addCounts(total: IngestCounts, part: IngestCounts): IngestCounts {
  const sum = (a: Record<string, number>, b: Record<string, number>) => {
    const out = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = (out[k] ?? 0) + v;
    return out;
  };
  return {
    read: total.read + part.read,
    loaded: total.loaded + part.loaded,
    unchanged_lines: (total.unchanged_lines ?? 0) + (part.unchanged_lines ?? 0),
    quarantined: total.quarantined + part.quarantined,
    out_of_scope: total.out_of_scope + part.out_of_scope,
    out_of_scope_reasons: sum(total.out_of_scope_reasons, part.out_of_scope_reasons),
    quarantine_reasons: sum(total.quarantine_reasons, part.quarantine_reasons),
    cast_failures: sum(total.cast_failures, part.cast_failures),
    unmapped_values: sum(total.unmapped_values ?? {}, part.unmapped_values ?? {}),
    unknown_fields: sum(total.unknown_fields ?? {}, part.unknown_fields ?? {}),
    followed_columns: [...(total.followed_columns ?? []), ...(part.followed_columns ?? [])],
    events: sum(total.events, part.events) as IngestCounts['events'],
    facts: sum(total.facts, part.facts) as IngestCounts['facts'],
    vanished: (total.vanished ?? 0) + (part.vanished ?? 0),
    bytes: total.bytes + part.bytes,
    part: [total.part, part.part].filter(Boolean).join('+') || null,
    layout: [total.layout, part.layout].filter(Boolean).join('+') || null,
    latest_record_date: [total.latest_record_date, part.latest_record_date].filter(Boolean).sort().pop() ?? null,
  };
}

export interface IngestServiceOptions {
  /**
   * Refuse downloads with fewer records than the source's minimum (a truncated export keeps the
   * previous data). On by default; off only where tiny sample sets are served.
   */
  enforceMinimumRows?: boolean;
  /** When a large file is staged on two threads (load-source.ts); never without it. */
  split?: SplitStaging;
  /** The old-generation heap each staging thread may grow to, in MB (staging-thread.ts). */
  threadHeapMb?: number;
  /** A CSV file is staged in a staging thread (the default; INGEST_STAGING_THREADS) or in the loading thread. */
  stagingThreads?: boolean;
  /** Where downloads from a URL may go (checked-fetch.ts `downloadPolicyFor`); the Socrata client's policy without it. */
  urlPolicy?: DownloadPolicy;
}

/** Runs ingest jobs: resolves the input (file, URL, download), loads it and records the run. */
export class IngestService {
  private readonly enforceMinimumRows: boolean;
  private readonly split: SplitStaging | undefined;
  private readonly threadHeapMb: number | undefined;
  private readonly stagingThreads: boolean;
  private readonly urlPolicy: DownloadPolicy;

  constructor(
    private readonly pool: Pool,
    private readonly socrata: SocrataClient,
    options: IngestServiceOptions = {},
  ) {
    this.enforceMinimumRows = options.enforceMinimumRows ?? true;
    this.split = options.split;
    this.threadHeapMb = options.threadHeapMb;
    this.stagingThreads = options.stagingThreads ?? true;
    this.urlPolicy = options.urlPolicy ?? socrata.policy;
  }

  /**
   * One run under its locks (run-lock.ts: never executed twice at once; other runs of its source
   * may stage beside it). A run that already ended well (its worker died after the load committed,
   * or a stalled job was taken over) is not loaded again: its outcome is returned.
   */
  async run(request: RunRequest): Promise<RunResult> {
    const source = getSource(request.source);
    const lock = await lockRun(this.pool, request.runId, source.key, { wait: request.waitForRun ?? true });
    try {
      const done = await finishedRun(this.pool, request.runId);
      if (done) return done;
      if ((await getRun(this.pool, request.runId))?.status === 'cancelled') throw new RunCancelledError();
      return await this.runLocked(source, request);
    } finally {
      await lock.release();
    }
  }

  private async runLocked(source: SourceDefinition, request: RunRequest): Promise<RunResult> {
    await markRunning(this.pool, request.runId);
    await sweepStaging(this.pool).catch(() => undefined);
    let lastWrite = 0;
    const onProgress = (progress: LoadProgress) => {
      request.onProgress?.(progress);
      if (Date.now() - lastWrite < 1000 && progress.phase === 'parsing') return;
      lastWrite = Date.now();
      void recordProgress(this.pool, request.runId, progress).catch(() => undefined);
    };
    try {
      const result = await this.execute(source, request, onProgress);
      // the portfolios follow the registrations at once: the run succeeds only with them rebuilt
      if (result.status === 'succeeded' && PORTFOLIO_SOURCES.has(source.key)) await rebuildPortfolios(this.pool);
      if (result.status === 'skipped') {
        await finishRun(this.pool, request.runId, { status: 'skipped', error: result.reason });
      } else {
        await finishRun(this.pool, request.runId, { status: 'succeeded', counts: result.counts });
      }
      return result;
    } catch (error) {
      if (error instanceof RunCancelledError) {
        await finishRun(this.pool, request.runId, { status: 'cancelled', error: error.message });
        throw error;
      }
      const permanent = isPermanent(error);
      const detail = failureDetail(error);
      const message = failureMessage(error, detail);
      // only a download waits for the operator: a bad file leaves the daily refresh to try the city's own
      const failure = { code: failureCode(error), permanent: permanent && request.input.kind === 'download' };
      await finishRun(this.pool, request.runId, { status: permanent || request.lastAttempt ? 'failed' : 'retrying', error: message, failure, detail });
      throw permanent ? new PermanentIngestError(message) : error;
    }
  }

  private async execute(source: SourceDefinition, request: RunRequest, onProgress: (p: LoadProgress) => void): Promise<RunResult> {
    const beforeMerge = () => this.stopIfCancelled(request.runId);
    const options = { runId: request.runId, observedOn: request.observedOn, onProgress, beforeMerge, split: this.split, threadHeapMb: this.threadHeapMb, stagingThreads: this.stagingThreads };
    const { input } = request;
    if (input.kind === 'download') return this.download(source, options);
    const incomplete = completeInputProblem(source, input);
    if (incomplete) throw new PermanentIngestError(incomplete);
    // a file or a URL is one load: the run's success commits with it. One that is the whole data set
    // closes what vanished from it, as a download's full export does, under the same guard against a
    // truncated file; any other may be an extract and closes nothing
    const whole = input.complete === true ? { closeVanished: true, enforceMinimumRows: this.enforceMinimumRows } : {};
    if (input.kind === 'file') {
      const info = await stat(input.path);
      return {
        status: 'succeeded',
        counts: await loadSource(
          this.pool,
          source,
          { kind: 'csv', stream: createReadStream(input.path, { highWaterMark: READ_CHUNK_BYTES }), totalBytes: info.size },
          { ...options, ...whole, completesRun: true },
        ),
      };
    }
    const res = await fetchChecked(input.url, { signal: AbortSignal.timeout(10 * 60_000) }, this.urlPolicy);
    if (!res.ok || !res.body) {
      throw res.status >= 400 && res.status < 500 ? new PermanentDownloadError(`${input.url} answered ${res.status}`) : new Error(`${input.url} answered ${res.status}`);
    }
    const length = Number(res.headers.get('content-length'));
    const stream = Readable.fromWeb(res.body as unknown as WebReadableStream<Uint8Array>);
    const load: LoadInput = { kind: 'csv', stream, totalBytes: Number.isFinite(length) && length > 0 ? length : null };
    return { status: 'succeeded', counts: await loadSource(this.pool, source, load, { ...options, enforceMinimumRows: this.enforceMinimumRows, ...whole, completesRun: true }) };
  }

  /**
   * Downloads every Open Data part of a source. Unchanged data sets (same rowsUpdatedAt) are skipped;
   * a source loaded before is pulled incrementally (SODA rows updated since the last refresh),
   * otherwise the whole CSV export is loaded. Sets the city replaces whole are always read whole, and
   * their records missing from the export are closed as vanished.
   */
  /** A run an operator cancelled stops here: before each merge, and before each part of a download. */
  private async stopIfCancelled(runId: string): Promise<void> {
    if (await cancelRequested(this.pool, runId)) throw new RunCancelledError();
  }

  private async download(
    source: SourceDefinition,
    options: { runId: string; observedOn: string; onProgress: (p: LoadProgress) => void; beforeMerge: () => Promise<void> },
  ): Promise<RunResult> {
    const state = await this.pool.query<{ rows_updated_at: string | null; last_refreshed_at: Date | null }>(
      `SELECT rows_updated_at, last_refreshed_at FROM sources WHERE key = $1`,
      [source.key],
    );
    const previous = state.rows[0];
    const parts = source.parts.filter((part) => part.datasetId);
    if (parts.length === 0) return { status: 'skipped', reason: `${source.key} is not published on Open Data; load its file with --file` };
    let total = emptyCounts();
    let newest = 0;
    let loadedAny = false;
    for (const part of parts) {
      await options.beforeMerge();
      const meta = await this.socrata.metadata(part);
      const updatedAt = meta.rowsUpdatedAt;
      newest = Math.max(newest, updatedAt ?? 0);
      if (updatedAt !== null && previous?.rows_updated_at && Number(previous.rows_updated_at) >= updatedAt) continue;
      loadedAny = true;
      await recordDatasetMetadata(this.pool, options.runId, part.part, meta);
      const wholeReplace = source.refresh === 'whole_replace';
      const since = previous?.last_refreshed_at && !wholeReplace ? new Date(previous.last_refreshed_at.getTime() - 24 * 3600_000).toISOString() : null;
      let counts: IngestCounts;
      if (since) {
        // where each column is comes from this metadata, checked before the first page
        const sodaFields = sodaFieldMap(source, part, meta.columns);
        counts = await loadSource(this.pool, source, { kind: 'soda', rows: this.socrata.updatedRows(part, since), part: part.part, sodaFields }, options);
      } else {
        const csv = { kind: 'csv' as const, ...(await this.socrata.csvExport(part)), part: part.part, fieldNames: fieldNameMap(meta) };
        counts = await loadSource(this.pool, source, csv, { ...options, enforceMinimumRows: this.enforceMinimumRows, closeVanished: wholeReplace });
      }
      total = addCounts(total, counts);
    }
    if (!loadedAny) {
      // the check succeeded: the data held is the city's current data
      await recordSourceUnchanged(this.pool, source.key);
      return { status: 'skipped', reason: 'unchanged since the last refresh (rowsUpdatedAt)' };
    }
    await recordRowsUpdatedAt(this.pool, source.key, newest || null);
    return { status: 'succeeded', counts: total };
  }
}
