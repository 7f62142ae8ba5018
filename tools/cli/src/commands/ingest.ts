import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import type { Pool } from 'pg';
import {
  buildDeferredEventIndexes,
  deferEventIndexes,
  eventsEmpty,
  type IndexRebuild,
  pgPool,
  rebuildEventIndexes,
  vacuumAfterLoad,
  type VacuumAfterLoad,
} from '@bhis/db';
import type { IngestInput } from '@bhis/queue';
import { getSource, SOURCES, sourceForFile } from '@bhis/sources';
import { CliError, withDataSource } from '../context';
import { printJson, printRows } from '../output';
import { isInteractive, ProgressDisplay } from '../progress';
import { warnWithoutWorkers, withQueue } from '../queues';
import {
  enqueueIngest,
  enqueueScoring,
  FINAL_RUN_STATUSES,
  getRun,
  IngestRequestError,
  IngestRunRow,
  latestRuns,
  type RunStatus,
  requestCancel,
  sourceStatuses,
} from '@bhis/runs';
import { runFailureText } from '../run-failure';

interface IngestOptions {
  source?: string;
  file?: string;
  url?: string;
  download?: boolean;
  complete?: boolean;
  dir?: string;
  status?: boolean;
  cancel?: string;
  wait?: boolean;
  force?: boolean;
  score?: boolean;
  observedOn?: string;
  json?: boolean;
}

function isoDay(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) throw new InvalidArgumentError('must be a date YYYY-MM-DD');
  return value;
}

const FINAL = new Set<RunStatus>(FINAL_RUN_STATUSES);

/** Polls a run until it ends, showing progress on a terminal. */
export async function waitForRun(pool: Pool, runId: string, label: string, interactive: boolean): Promise<IngestRunRow> {
  const display = new ProgressDisplay(interactive, label);
  try {
    for (;;) {
      const run = await getRun(pool, runId);
      if (!run) throw new CliError(`Run ${runId} disappeared`);
      const p = run.progress;
      if (p.bytes !== undefined) {
        display.update({ done: Math.round(p.bytes / 1e4) / 100, total: p.total_bytes ? Math.round(p.total_bytes / 1e4) / 100 : null, unit: 'MB', bytes: p.bytes, phase: p.phase });
      }
      if (FINAL.has(run.status)) return run;
      await new Promise((r) => setTimeout(r, 400));
    }
  } finally {
    display.stop();
  }
}

function summarize(run: IngestRunRow): Record<string, unknown> {
  const c = run.counts;
  return {
    source: run.source,
    run_id: run.id,
    status: run.status,
    read: c.read ?? null,
    loaded: c.loaded ?? null,
    unchanged_lines: c.unchanged_lines ?? null,
    quarantined: c.quarantined ?? null,
    out_of_scope: c.out_of_scope ?? null,
    inserted: c.events && c.facts ? c.events.inserted + c.facts.inserted : null,
    updated: c.events && c.facts ? c.events.updated + c.facts.updated : null,
    status_changes: c.events?.status_changes ?? null,
    seconds: run.duration_ms !== null ? Math.round(run.duration_ms / 100) / 10 : null,
  };
}

/** A failed run's error, on stderr, as a block people can read (the table keeps to one line a run). */
function reportFailures(runs: readonly IngestRunRow[]): void {
  for (const run of runs) if (run.status === 'failed' || run.status === 'cancelled') process.stderr.write(`\n${runFailureText(run)}\n`);
}

/** Says that nothing new was queued: the same input was already loaded (or is loading) as this run. */
function reportAlreadyLoaded(run: IngestRunRow | null, runId: string): void {
  const state = run ? `${run.status}${run.finished_at ? ` at ${run.finished_at.toISOString()}` : ''}` : 'unknown';
  const what = run && FINAL.has(run.status) ? 'Already loaded' : 'Already queued';
  process.stderr.write(`${what}: this input is run ${runId} (${state}); nothing new was queued. Use --force to load it again.\n`);
}

function inputOf(options: IngestOptions): IngestInput {
  const given = [options.file, options.url, options.download].filter(Boolean).length;
  if (given !== 1) throw new CliError('Give exactly one of --file, --url or --download with --source');
  const complete = options.complete === true;
  if (options.file) return { kind: 'file', path: path.resolve(options.file), complete };
  if (options.url) return { kind: 'url', url: options.url, complete };
  if (complete) throw new CliError('--complete goes with --file or --url: a download knows by itself what it brings');
  return { kind: 'download' };
}

/** Files of a directory that a source recognises, in load order (buildings and maps first). */
export function recognisedFiles(dir: string): { file: string; source: string }[] {
  const order = new Map<string, number>(SOURCES.map((s, i) => [s.key, i]));
  return readdirSync(dir)
    .flatMap((name) => {
      const file = path.join(dir, name);
      const match = sourceForFile(name);
      return match && statSync(file).isFile() ? [{ file, source: match.source.key }] : [];
    })
    .sort((a, b) => (order.get(a.source) ?? 0) - (order.get(b.source) ?? 0) || a.file.localeCompare(b.file));
}

/**
 * Event files, the largest first: the workers then end together instead of one of them starting the
 * largest file last. Two files of one source are read and staged at once; their merges take turns
 * (run-lock.ts). A job put back while a stalled worker still executes its run keeps its place by size (its job priority).
 */
export function largestFirst<T extends { file: string }>(files: readonly T[]): T[] {
  const bytes = new Map(files.map(({ file }) => [file, statSync(file).size]));
  return [...files].sort((a, b) => (bytes.get(b.file) ?? 0) - (bytes.get(a.file) ?? 0) || a.file.localeCompare(b.file));
}

export function ingestCommand(): Command {
  return new Command('ingest')
    .description('Queue ingest runs for the ingest worker, and watch them')
    .option('--source <key>', `source key (${SOURCES.length} sources; see --status)`)
    .option('--file <path>', 'a local file in the source\'s published CSV format')
    .option('--url <url>', 'a URL serving the source\'s CSV export')
    .option('--download', 'download from NYC Open Data (skipped when unchanged; incremental when loaded before)')
    .option('--complete', 'the --file or --url is the source\'s whole data set (its full export): records missing from it are closed as vanished; without it nothing is closed')
    .option('--dir <dir>', 'every recognised file of a directory (.csv or .csv.gz): building files in load order, then the event files (waits for all)')
    .option('--status', 'show every source with its last run')
    .option('--cancel <run>', 'cancel a run: a queued one at once, a running one before its merge (its source keeps its data)')
    .option('--wait', 'wait for the run to finish (progress bar on a terminal)')
    .option('--force', 'queue again even if the same input was already ingested today')
    .option('--score', 'queue an incremental scoring run when the ingest succeeds')
    .option('--observed-on <date>', 'day the data was observed: dates status-change events (default today)', isoDay)
    .option('--json', 'print JSON')
    .action(async (options: IngestOptions) => {
      if (options.status) return showStatus(Boolean(options.json));
      if (options.cancel) return cancelRun(options.cancel, Boolean(options.json));
      if (options.dir) {
        if (options.complete) throw new CliError('--complete goes with --source and --file or --url (one file that is a whole source)');
        return ingestDirectory(options.dir, options);
      }
      const source = options.source;
      if (!source) throw new CliError('Give --source KEY (with --file, --url or --download), --dir DIR, or --status');
      const input = inputOf(options);
      await withDataSource((ds) =>
        withQueue('ingest', async (queue) => {
          const pool = pgPool(ds);
          await warnWithoutWorkers(queue, 'npm run start:ingest');
          const queued = await enqueueIngest(queue, pool, {
            source,
            input,
            trigger: 'cli',
            force: options.force,
            scoreAfter: options.score,
            observedOn: options.observedOn,
          }).catch((error: unknown) => {
            throw error instanceof IngestRequestError ? new CliError(error.message) : error;
          });
          if (!queued.created && !options.json) reportAlreadyLoaded(await getRun(pool, queued.runId), queued.runId);
          if (!options.wait) {
            if (options.json) return printJson({ run_id: queued.runId, job_id: queued.jobId, created: queued.created });
            if (queued.created) process.stdout.write(`Queued run ${queued.runId} (job ${queued.jobId}).\n`);
            return;
          }
          const run = await waitForRun(pool, queued.runId, source, isInteractive(options.json));
          if (options.json) printJson({ ...summarize(run), created: queued.created, error: run.error, error_detail: run.error_detail, counts: run.counts });
          else if (queued.created) printRows([summarize(run)], false);
          if (!options.json) reportFailures([run]);
          if (run.status === 'failed') process.exitCode = 1;
        }),
      );
    });
}

/**
 * Every source with its state (the rule of `GET /api/v1/sources` and of the buildings' stale flags)
 * and its last run; a failing source shows its last error, with what to do.
 */
async function cancelRun(runId: string, json: boolean): Promise<void> {
  if (!/^[0-9a-f-]{36}$/i.test(runId)) throw new CliError(`--cancel takes a run id (a UUID), not "${runId}"`);
  await withDataSource(async (ds) => {
    const pool = pgPool(ds);
    const outcome = await requestCancel(pool, runId);
    if (outcome.kind === 'not_found') throw new CliError(`No ingest run ${runId}`);
    if (outcome.kind === 'finished') throw new CliError(`Run ${runId} has already ended (${outcome.run.status})`);
    if (outcome.kind === 'cancelled' && outcome.run.job_id) {
      await withQueue('ingest', async (queue) => {
        await (await queue.getJob(outcome.run.job_id as string))?.remove().catch(() => undefined);
      });
    }
    if (json) return printJson({ run_id: runId, status: outcome.run.status, cancel_requested_at: outcome.run.cancel_requested_at });
    process.stdout.write(
      outcome.kind === 'cancelled'
        ? `Cancelled run ${runId} before it started.\n`
        : `Asked run ${runId} to stop: it stops before its merge, and its source keeps its data (a run already merging finishes).\n`,
    );
  });
}

async function showStatus(json: boolean): Promise<void> {
  await withDataSource(async (ds) => {
    const pool = pgPool(ds);
    const runs = new Map((await latestRuns(pool)).map((r) => [r.source, r]));
    printRows(
      (await sourceStatuses(pool)).map((s) => {
        const r = runs.get(s.key);
        return {
          source: s.key,
          state: s.state,
          records_behind: s.records_behind,
          last_refreshed_at: s.last_refreshed_at,
          records: s.records,
          last_run: r?.id ?? null,
          status: r?.status ?? 'never_run',
          read: r?.counts?.read ?? null,
          quarantined: r?.counts?.quarantined ?? null,
          failing_since: s.failing_since,
          error_code: s.last_error?.code ?? null,
          error: s.last_error?.message ?? r?.error ?? null,
        };
      }),
      json,
    );
  });
}

/** On stderr: stdout carries the summary (JSON with --json). */
export function reportRebuild(rebuild: IndexRebuild): void {
  const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
  reportBuilt(rebuild.built);
  const what = rebuild.clustered ? 'Wrote events in building order and rebuilt their indexes' : 'Rebuilt the indexes of events';
  process.stderr.write(`${what}: ${mb(rebuild.bytesBefore)} -> ${mb(rebuild.bytesAfter)} MB of indexes in ${rebuild.seconds.toFixed(1)} s.\n`);
}

function reportVacuum({ tables, seconds }: VacuumAfterLoad): void {
  if (tables.length === 0) return;
  const list = tables.map((t) => `${t.table} (${t.deadRows.toLocaleString('en-US')} dead rows)`).join(', ');
  process.stderr.write(`Vacuumed and analyzed the tables the load rewrote in ${seconds.toFixed(1)} s: ${list}.\n`);
}

function reportBuilt(built: string[]): void {
  if (built.length > 0) process.stderr.write(`Built the indexes of events deferred during the first load: ${built.join(', ')}.\n`);
}

async function ingestDirectory(dir: string, options: IngestOptions): Promise<void> {
  const files = recognisedFiles(path.resolve(dir));
  if (files.length === 0) throw new CliError(`No file in ${dir} is recognised by a source (e.g. hpd_violations.csv, pluto_latest.csv)`);
  await withDataSource((ds) =>
    withQueue('ingest', async (queue) => {
      const pool = pgPool(ds);
      await warnWithoutWorkers(queue, 'npm run start:ingest');
      const firstLoad = await eventsEmpty(pool);
      // a first load of the city writes events without their secondary indexes, built once at the end
      if (firstLoad) await deferEventIndexes(pool);
      const summaries: Record<string, unknown>[] = [];
      const failures: IngestRunRow[] = [];
      try {
        const enqueue = (file: string, source: string, priority?: number) =>
          enqueueIngest(queue, pool, { source, input: { kind: 'file', path: file }, trigger: 'cli', force: options.force, observedOn: options.observedOn, priority });
        const finish = async (queued: { runId: string; created: boolean }, file: string, source: string) => {
          const run = await waitForRun(pool, queued.runId, `${source} (${path.basename(file)})`, isInteractive(options.json));
          summaries.push({ file: path.basename(file), queued: queued.created ? 'new' : 'already loaded', ...summarize(run), ...(options.json ? { error: run.error } : {}) });
          if (run.status === 'failed' || run.status === 'cancelled') failures.push(run);
          if (run.status === 'failed') process.exitCode = 1;
        };
        // buildings and the BIN/registration maps first, one by one: the event files are read against them
        const buildingFacts = files.filter(({ source }) => getSource(source).produces.facts.length > 0);
        for (const { file, source } of buildingFacts) await finish(await enqueue(file, source), file, source);
        // then every event file at once: a worker reads the next file while it merges one (merges take
        // turns), the two files of a source (the 311 requests) too
        const rest = largestFirst(files.filter((f) => !buildingFacts.includes(f)));
        const queued = [];
        for (const [i, { file, source }] of rest.entries()) queued.push({ file, source, run: await enqueue(file, source, i + 1) });
        for (const { file, source, run } of queued) await finish(run, file, source);

        // a first load writes the events in building order once they are all in (docs/adr/0017-events-in-building-order.md)
        if (firstLoad && process.exitCode !== 1) reportRebuild(await rebuildEventIndexes(pool, { cluster: true }));
        // what is read next (the scoring run's pages of buildings) is read from tidy tables; the files
        // are in either way, so a vacuum that fails is reported, not the load
        await vacuumAfterLoad(pool).then(reportVacuum, (error: Error) => process.stderr.write(`warning: the vacuum after the load failed: ${error.message}\n`));
      } finally {
        // the deferred indexes are built whatever happened (those of an earlier load that never finished too)
        reportBuilt(await buildDeferredEventIndexes(pool));
      }
      printRows(summaries, Boolean(options.json));
      if (!options.json) {
        reportFailures(failures);
        if (summaries.some((s) => s.queued === 'already loaded')) {
          process.stderr.write('Files marked "already loaded" were loaded before with the same content: nothing new was queued for them (use --force to load them again).\n');
        }
      }
      if (options.score) {
        await withQueue('scoring', async (scoring) => {
          const run = await enqueueScoring(scoring, pool, { kind: 'incremental', trigger: 'cli' });
          if (!options.json) process.stdout.write(`Queued scoring run ${run.runId}.\n`);
        });
      }
    }),
  );
}
