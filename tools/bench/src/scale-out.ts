import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { NodeProcess, runCliJsonTimed } from '@bhis/testing';
import { Pool } from 'pg';
import { CITY_AS_OF, IngestSummaryRow } from './data-setup';
import { databaseUrl, recreateDatabase } from './database';

/** One city load and one full scoring run with `workers` ingest and `workers` scoring workers on one fresh database. */
export interface WorkersRun {
  workers: number;
  database: string;
  ingestSeconds: number;
  ingestRows: number;
  ingestRowsPerSecond: number;
  /** ingest runs each ingest worker reported as its own */
  ingestRunsPerWorker: number[];
  scoringSeconds: number;
  buildings: number;
  buildingsPerSecond: number;
  scoringParts: number;
  /** parts of the run each scoring worker scored */
  partsPerWorker: number[];
  loadAverageBefore: number[];
  loadAverageAfter: number[];
}

export interface ScaleOutResult {
  scalePercent: number;
  startedAt: string;
  finishedAt: string;
  command: string;
  cpus: number;
  runs: WorkersRun[];
  /** one worker's seconds divided by the most workers' seconds */
  ingestSpeedUp: number;
  scoringSpeedUp: number;
}

const loadAverage = (): number[] => os.loadavg().map((l) => Math.round(l * 100) / 100);

interface ScoreSummary {
  run_id: string;
  status: string;
  buildings: number | null;
  seconds: number | null;
  error: string | null;
}

async function runWith(workers: number, options: { adminUrl: string; redisUrl: string; scale: number; cityDir: string; log: (line: string) => void }): Promise<WorkersRun> {
  const database = `bhis_bench_${String(options.scale).replace('.', '_')}_workers${workers}`;
  await recreateDatabase(options.adminUrl, database);
  const url = databaseUrl(options.adminUrl, database);
  const env = { DATABASE_URL: url, REDIS_URL: options.redisUrl, REDIS_PREFIX: `bhis_bench_${randomBytes(4).toString('hex')}`, LOG_LEVEL: 'info' };
  const ingest = Array.from({ length: workers }, () => NodeProcess.app('ingest', env));
  const scoring = Array.from({ length: workers }, () => NodeProcess.app('scoring', env));
  const loadAverageBefore = loadAverage();
  try {
    for (const w of [...ingest, ...scoring]) await w.waitFor(/(ingest|scoring) worker started/);
    options.log(`${workers} worker(s) of each kind: ingest`);
    const loaded = await runCliJsonTimed<IngestSummaryRow[]>(['ingest', '--dir', options.cityDir, '--observed-on', CITY_AS_OF, '--json'], env, ingest);
    const failed = loaded.value.filter((r) => r.status !== 'succeeded' && r.status !== 'skipped');
    if (failed.length > 0) throw new Error(`ingest failed for ${failed.map((f) => f.source).join(', ')}`);
    options.log(`${workers} worker(s) of each kind: full scoring`);
    const scored = await runCliJsonTimed<ScoreSummary>(['score', '--full', '--as-of', CITY_AS_OF, '--force', '--wait', '--json'], env, scoring);
    if (scored.value.status !== 'succeeded') throw new Error(`scoring run ${scored.value.run_id} ${scored.value.status}: ${scored.value.error ?? ''}`);
    const pool = new Pool({ connectionString: url, max: 1 });
    let parts = 0;
    try {
      parts = (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM scoring_run_parts WHERE run_id = $1`, [scored.value.run_id])).rows[0]?.n ?? 0;
    } finally {
      await pool.end();
    }
    const ingestRows = loaded.value.reduce((sum, r) => sum + (r.read ?? 0), 0);
    const ingestSeconds = loaded.elapsedMs / 1000;
    const scoringSeconds = scored.elapsedMs / 1000;
    const buildings = scored.value.buildings ?? 0;
    return {
      workers,
      database,
      ingestSeconds,
      ingestRows,
      ingestRowsPerSecond: Math.round(ingestRows / ingestSeconds),
      ingestRunsPerWorker: ingest.map((w) => (w.output.match(/ingest run \S+ \(\w+\): succeeded/g) ?? []).length),
      scoringSeconds,
      buildings,
      buildingsPerSecond: Math.round(buildings / scoringSeconds),
      scoringParts: parts,
      partsPerWorker: scoring.map((w) => (w.output.match(/part \d+ scored/g) ?? []).length),
      loadAverageBefore,
      loadAverageAfter: loadAverage(),
    };
  } finally {
    for (const w of [...ingest, ...scoring]) await w.stop();
  }
}

/**
 * The same city loaded and scored in full with one worker of each kind, then with `workers` of each
 * kind (each on a fresh database): wall times as the operator sees them (`bhis ingest --dir`,
 * `bhis score --full --wait`), and who did what.
 */
export async function measureScaleOut(options: { adminUrl: string; redisUrl: string; scale: number; cityDir: string; workers: number; command: string; log: (line: string) => void }): Promise<ScaleOutResult> {
  const startedAt = new Date().toISOString();
  const runs: WorkersRun[] = [];
  for (const workers of [1, options.workers]) runs.push(await runWith(workers, options));
  const [one, most] = [runs[0], runs[runs.length - 1]];
  return {
    scalePercent: options.scale,
    startedAt,
    finishedAt: new Date().toISOString(),
    command: options.command,
    cpus: os.cpus().length,
    runs,
    ingestSpeedUp: Math.round((one.ingestSeconds / most.ingestSeconds) * 100) / 100,
    scoringSpeedUp: Math.round((one.scoringSeconds / most.scoringSeconds) * 100) / 100,
  };
}
