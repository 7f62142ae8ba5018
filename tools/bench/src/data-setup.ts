import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Pool } from 'pg';
import { NodeProcess, postgresCpuSeconds, processCpuSeconds, processTree, readProcessMemory, sleep } from '@bhis/testing';
import { runCliJsonTimed } from '@bhis/testing';
import { PostgresWrites, readWriteCounters, readWriteSettings, writesBetween } from './postgres-writes';

/** The synthetic city's report as printed by `bhis synth --json` (the fields the benchmark uses). */
export interface CityReport {
  seed: number | string;
  buildings: number;
  asOf: string;
  outDir: string;
  files: { source: string; file: string; rows: number; bytes: number }[];
  eventRows: number;
  totalRows: number;
  totalBytes: number;
  elapsedMs: number;
  eventsPerBuilding: { mean: number; median: number; p99: number; max: number; atLeast10000: number };
}

export const BUILDINGS_PER_PERCENT = 4_450;
export const CITY_SEED = '1';
export const CITY_AS_OF = '2026-11-01';

/**
 * Generates the city (or reuses one generated earlier with the same size, seed and date). With
 * `changes`, the city as of `changes.asOf`; with `changes.since` too, the refresh of that city: the
 * rows new or changed from `changes.since` to `changes.asOf`.
 */
export async function ensureCity(
  dir: string,
  buildings: number,
  gzip = false,
  changes?: { asOf: string; since?: string },
): Promise<{ report: CityReport; reused: boolean; command: string }> {
  const reportFile = `${dir}.synth.json`;
  const asOf = changes?.asOf ?? CITY_AS_OF;
  const args = ['synth', '--buildings', String(buildings), '--seed', CITY_SEED, '--as-of', asOf, ...(changes?.since ? ['--changes-since', changes.since] : []), '--out', dir, ...(gzip ? ['--gzip'] : []), '--json'];
  const command = `bhis ${args.join(' ')}`;
  if (existsSync(reportFile) && statSync(reportFile).size > 0) {
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as CityReport;
    const same = report.buildings === buildings && String(report.seed) === CITY_SEED && report.asOf === asOf;
    if (same && report.files.every((f) => existsSync(path.resolve(dir, f.file)))) return { report, reused: true, command };
  }
  const { value } = await runCliJsonTimed<CityReport>(args, {});
  writeFileSync(reportFile, JSON.stringify(value, null, 2));
  return { report: value, reused: false, command };
}

/** One file's row of `bhis ingest --dir ... --json`. */
export interface IngestSummaryRow {
  file: string;
  source: string;
  status: string;
  read: number | null;
  loaded: number | null;
  quarantined: number | null;
  seconds: number | null;
  error: string | null;
}

export interface SourceIngestResult {
  source: string;
  file: string;
  status: string;
  rows: number;
  bytes: number;
  seconds: number;
  rowsPerSecond: number;
  megabytesPerSecond: number;
}

export interface IngestResult {
  command: string;
  wallSeconds: number;
  rows: number;
  bytes: number;
  rowsPerSecond: number;
  megabytesPerSecond: number;
  perSource: SourceIngestResult[];
  largestFile: string;
  workerPeakRssBytes: number;
  /** CPU seconds used during the ingest by the ingest worker and by Postgres (absent in older results). */
  cpu?: { workerSeconds: number; postgresSeconds: number };
  /** What Postgres wrote during the ingest (WAL, checkpoints) and its settings (absent in older results). */
  postgresWrites?: PostgresWrites;
  /**
   * Each file's seconds run to the commit of its merge. Absent in results written before the runs'
   * times were corrected (libs/runs/src/run-duration.ts): their seconds ended where the file's merge
   * transaction began, its staging alone.
   */
  fileSecondsToCommit?: boolean;
}

function rate(amount: number, seconds: number): number {
  return seconds > 0 ? amount / seconds : 0;
}

/** Samples the VmRSS of a process and of its children until stopped; returns the highest value any of them had. */
export class PeakRssSampler {
  private peak = 0;
  private running = true;
  private readonly loop: Promise<void>;

  constructor(pid: number, everyMs = 250) {
    this.loop = (async () => {
      while (this.running) {
        const tree = processTree(pid);
        for (const member of tree) {
          try {
            this.peak = Math.max(this.peak, readProcessMemory(member).rssBytes);
          } catch {
            // exited since it was listed
          }
        }
        if (tree.length === 1 && !existsSync(`/proc/${pid}`)) return;
        await sleep(everyMs);
      }
    })();
  }

  async stop(): Promise<number> {
    this.running = false;
    await this.loop;
    return this.peak;
  }
}

/** Ingests every file of the city through the real ingest worker (the CLI queues and waits). */
export async function ingestCity(dir: string, env: Record<string, string>, worker: NodeProcess, observedOn = CITY_AS_OF): Promise<IngestResult> {
  const command = `bhis ingest --dir ${dir} --observed-on ${observedOn} --json`;
  const sampler = new PeakRssSampler(worker.pid);
  const writesBefore = await readWriteCounters(env.DATABASE_URL);
  const cpuBefore = { worker: processCpuSeconds(worker.pid), postgres: postgresCpuSeconds() };
  const { value, elapsedMs } = await runCliJsonTimed<IngestSummaryRow[]>(['ingest', '--dir', dir, '--observed-on', observedOn, '--json'], env, [worker]);
  const postgresWrites = writesBetween(writesBefore, await readWriteCounters(env.DATABASE_URL), await readWriteSettings(env.DATABASE_URL));
  const cpu = {
    workerSeconds: Math.round((processCpuSeconds(worker.pid) - cpuBefore.worker) * 10) / 10,
    postgresSeconds: Math.round((postgresCpuSeconds() - cpuBefore.postgres) * 10) / 10,
  };
  const peakSampled = await sampler.stop();
  const workerPeakRssBytes = Math.max(peakSampled, readProcessMemory(worker.pid).peakRssBytes);
  const perSource = value.map((row): SourceIngestResult => {
    const bytes = statSync(path.join(dir, row.file)).size;
    const seconds = row.seconds ?? 0;
    const rows = row.read ?? 0;
    return {
      source: row.source,
      file: row.file,
      status: row.status,
      rows,
      bytes,
      seconds,
      rowsPerSecond: Math.round(rate(rows, seconds)),
      megabytesPerSecond: Math.round(rate(bytes / 1e6, seconds) * 10) / 10,
    };
  });
  const failed = perSource.filter((s) => s.status !== 'succeeded' && s.status !== 'skipped');
  if (failed.length > 0) throw new Error(`ingest failed for ${failed.map((f) => f.source).join(', ')}: ${value.map((v) => v.error).filter(Boolean).join('; ')}`);
  const rows = perSource.reduce((sum, s) => sum + s.rows, 0);
  const bytes = perSource.reduce((sum, s) => sum + s.bytes, 0);
  const wallSeconds = elapsedMs / 1000;
  const largest = [...perSource].sort((a, b) => b.bytes - a.bytes)[0];
  return {
    command,
    wallSeconds,
    rows,
    bytes,
    rowsPerSecond: Math.round(rate(rows, wallSeconds)),
    megabytesPerSecond: Math.round(rate(bytes / 1e6, wallSeconds) * 10) / 10,
    perSource,
    largestFile: largest?.file ?? '',
    workerPeakRssBytes,
    cpu,
    postgresWrites,
    fileSecondsToCommit: true,
  };
}

/**
 * The ingest figures of an earlier run, read back from ingest_runs (for --reuse-data): per-source
 * durations as the worker recorded them, wall time from the first queued to the last finished run.
 */
export async function ingestResultFromRuns(pool: Pool, dir: string): Promise<IngestResult> {
  const { rows } = await pool.query<{ source: string; input: string; status: string; read: string | null; duration_ms: number | null }>(
    `SELECT source, input, status, counts->>'read' AS read, duration_ms FROM ingest_runs ORDER BY queued_at`,
  );
  const wall = await pool.query<{ seconds: number }>(`SELECT extract(epoch FROM max(finished_at) - min(queued_at))::float8 AS seconds FROM ingest_runs`);
  const perSource = rows.map((row): SourceIngestResult => {
    const file = path.basename(row.input ?? '');
    const bytes = statSync(path.join(dir, file)).size;
    const seconds = (row.duration_ms ?? 0) / 1000;
    const read = Number(row.read ?? 0);
    return { source: row.source, file, status: row.status, rows: read, bytes, seconds, rowsPerSecond: Math.round(rate(read, seconds)), megabytesPerSecond: Math.round(rate(bytes / 1e6, seconds) * 10) / 10 };
  });
  const totalRows = perSource.reduce((sum, s) => sum + s.rows, 0);
  const bytes = perSource.reduce((sum, s) => sum + s.bytes, 0);
  const wallSeconds = wall.rows[0]?.seconds ?? 0;
  const largest = [...perSource].sort((a, b) => b.bytes - a.bytes)[0];
  return {
    command: `bhis ingest --dir ${dir} --observed-on ${CITY_AS_OF} --json`,
    wallSeconds,
    rows: totalRows,
    bytes,
    rowsPerSecond: Math.round(rate(totalRows, wallSeconds)),
    megabytesPerSecond: Math.round(rate(bytes / 1e6, wallSeconds) * 10) / 10,
    perSource,
    largestFile: largest?.file ?? '',
    workerPeakRssBytes: 0,
    // the duration kept by the run's record once the load has committed
    fileSecondsToCommit: true,
  };
}

/** `bhis score ... --wait --json` output (the fields the benchmark uses). */
interface ScoreSummary {
  run_id: string;
  kind: string;
  status: string;
  buildings: number | null;
  seconds: number | null;
  error: string | null;
}

export interface ScoringResult {
  command: string;
  kind: string;
  /** processes of the scoring worker (SCORING_PROCESSES; absent in runs before it existed: one) */
  processes?: number;
  buildings: number;
  seconds: number;
  buildingsPerSecond: number;
  workerPeakRssBytes: number;
  /**
   * The seconds run to the commit of the switch of the scores. Absent in results written before the
   * runs' times were corrected (libs/runs/src/run-duration.ts): their seconds ended where the switch
   * transaction began (the writes of the scores, the history and the grade crossings not counted).
   */
  toSwitchCommit?: boolean;
}

export async function score(args: string[], env: Record<string, string>, worker: NodeProcess, asOf = CITY_AS_OF): Promise<ScoringResult> {
  const sampler = new PeakRssSampler(worker.pid);
  const { value } = await runCliJsonTimed<ScoreSummary>(['score', ...args, '--as-of', asOf, '--force', '--wait', '--json'], env, [worker]);
  const peak = await sampler.stop();
  if (value.status !== 'succeeded') throw new Error(`scoring run ${value.run_id} ${value.status}: ${value.error ?? ''}`);
  const seconds = value.seconds ?? 0;
  const buildings = value.buildings ?? 0;
  return {
    command: `bhis score ${args.map((a) => `${a} `).join('')}--as-of ${asOf} --force --wait --json`,
    kind: value.kind,
    processes: Number(env.SCORING_PROCESSES ?? 1),
    buildings,
    seconds,
    buildingsPerSecond: Math.round(rate(buildings, seconds)),
    workerPeakRssBytes: peak,
    toSwitchCommit: true,
  };
}

export function scoreFull(env: Record<string, string>, worker: NodeProcess): Promise<ScoringResult> {
  return score(['--full'], env, worker);
}

/**
 * An incremental run over a share of the buildings, marked as changed the way an ingest marks them
 * (rows in dirty_buildings): what a daily refresh touching that share costs.
 */
export async function scoreIncremental(pool: Pool, share: number, env: Record<string, string>, worker: NodeProcess): Promise<ScoringResult & { dirtyShare: number }> {
  await pool.query(`DELETE FROM dirty_buildings`);
  await pool.query(`INSERT INTO dirty_buildings (bbl) SELECT bbl FROM buildings WHERE abs(hashtext(bbl)) % 1000 < $1`, [Math.round(share * 1000)]);
  const result = await score([], env, worker);
  return { ...result, dirtyShare: share };
}
