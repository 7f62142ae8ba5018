import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import Redis from 'ioredis';
import { Pool } from 'pg';
import { CopyCeiling, databaseUrl, eventStorage, measureCopyCeiling, measureCsvCopyCeiling, recreateDatabase, serverVersion, tableSizes } from './database';
import { BUILDINGS_PER_PERCENT, ensureCity, ingestCity, IngestResult, ingestResultFromRuns, scoreFull, scoreIncremental } from './data-setup';
import { HttpBenchmark, runHttpBenchmark } from './http/run-http';
import { loadTargets } from './http/targets';
import { describeMachine } from './machine';
import { NodeProcess } from '@bhis/testing';
import { renderMarkdown } from './render';
import { buildProjects, repoRoot } from '@bhis/testing';
import { measureLargestFileAlone } from './largest-file-alone';
import { BenchmarkFile, BenchmarkRun, CitySummary, LargestFileAlone } from './results';
import { ensureRefresh, refreshCity } from './refresh';
import { ensureSodaRefresh, mirrorDir, refreshCityBySoda } from './soda-refresh';
import { mirrorWorkerEnv, SocrataMirror } from '@bhis/synth';
import { measureScaleOut } from './scale-out';
import { measureReingest } from './reingest';
import { measureSearchScaling } from './search-scaling/search-scaling';
import { CITY_REGISTRATIONS, measurePortfolioGraph } from './portfolio-graph';

interface BenchOptions {
  renderOnly: boolean;
  sizesOnly: boolean;
  refresh: boolean;
  httpOnly: boolean;
  lookupOnly?: boolean;
  database?: string;
  scale: number;
  connections: number;
  httpSeconds: number;
  http: boolean;
  reuseData: boolean;
  build: boolean;
  adminUrl: string;
  redisUrl: string;
  dataDir?: string;
  gzip?: boolean;
  workers?: number;
  scoringProcesses: number;
  /** `true` when given without a count. */
  portfolioGraph?: number | true;
  searchScaling?: boolean;
}

function positive(value: string): number {
  const n = Number(value);
  if (!(n > 0) || n > 100) throw new InvalidArgumentError('must be a number above 0 and at most 100');
  return n;
}

function log(line: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
}

async function redisVersion(url: string): Promise<string> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    return /redis_version:(\S+)/.exec(await redis.info('server'))?.[1] ?? 'unknown';
  } finally {
    redis.disconnect();
  }
}

/** The V8 heap cap the scoring worker runs with in docker-compose.yml (docs/scaling.md: its memory). */
const SCORING_NODE_OPTIONS = '--max-old-space-size=1024';

function startWorker(name: 'ingest' | 'scoring', env: Record<string, string>): NodeProcess {
  return NodeProcess.app(name, { ...env, LOG_LEVEL: 'info', ...(name === 'scoring' ? { NODE_OPTIONS: SCORING_NODE_OPTIONS } : {}) });
}

/** Measures the table and index sizes and the bytes per event of an existing benchmark database again (the rest of its run stays). */
async function remeasureSizes(options: BenchOptions): Promise<void> {
  const root = repoRoot();
  const results = readResults(root);
  const run = results.runs[String(options.scale)];
  if (!run) throw new Error(`no ${options.scale}% run in docs/benchmarks.json`);
  const pool = new Pool({ connectionString: databaseUrl(options.adminUrl, run.database), max: 1 });
  try {
    run.tables = await tableSizes(pool);
    run.storage = await eventStorage(pool);
  } finally {
    await pool.end();
  }
  writeResults(root, results);
  log(`sizes of ${run.database} measured again`);
}

/** Runs the HTTP benchmarks again on the existing benchmark database (the rest of its run stays). */
async function rerunHttp(options: BenchOptions, argv: string[]): Promise<void> {
  const root = repoRoot();
  if (options.build) buildProjects(['api']);
  const results = readResults(root);
  const run = results.runs[String(options.scale)];
  if (!run) throw new Error(`no ${options.scale}% run in docs/benchmarks.json`);
  const database = options.database ?? run.database;
  const pool = new Pool({ connectionString: databaseUrl(options.adminUrl, database), max: 2 });
  try {
    const targets = await loadTargets(pool);
    log(`HTTP again on ${database}: ${options.connections} connections, ${options.httpSeconds} s per scenario`);
    const earlier = run.http;
    run.http = await runHttpBenchmark({
      databaseUrl: databaseUrl(options.adminUrl, database),
      redisPrefix: `bhis_bench_${randomBytes(4).toString('hex')}`,
      connections: options.connections,
      secondsPerScenario: options.httpSeconds,
      targets,
      lookupOnly: options.lookupOnly ?? false,
      log,
    });
    if (options.lookupOnly && earlier) {
      // the scenarios not run again keep their earlier figures
      const fresh = new Set(run.http.scenarios.map((r) => r.name));
      run.http.scenarios = [...run.http.scenarios, ...earlier.scenarios.filter((r) => !fresh.has(r.name))];
      run.http.unitCosts ??= earlier.unitCosts;
    }
    run.httpCommand = `npm run bench -- ${argv.join(' ')}`;
    run.httpAt = new Date().toISOString();
    // measured now on this run's database (with --lookup-only, the other scenarios stay as they were)
    if (!options.lookupOnly) delete run.httpKeptFrom;
  } finally {
    await pool.end();
  }
  writeResults(root, results);
}

/** One worker of each kind against `--workers N`, on the same city (the rest of the results stays). */
async function compareWorkers(options: BenchOptions, argv: string[]): Promise<void> {
  const root = repoRoot();
  if (options.build) buildProjects(['ingest', 'scoring', 'cli']);
  const gzip = options.gzip ?? options.scale >= 10;
  const cityDir = path.join(options.dataDir ? path.resolve(options.dataDir) : path.join(root, 'data/bench'), `city-${options.scale}${gzip ? '-gz' : ''}`);
  const city = await ensureCity(cityDir, Math.round(options.scale * BUILDINGS_PER_PERCENT), gzip);
  log(`city ${city.reused ? 'reused' : 'generated'}: ${city.report.totalRows} rows; 1 worker of each kind, then ${options.workers}`);
  const result = await measureScaleOut({
    adminUrl: options.adminUrl,
    redisUrl: options.redisUrl,
    scale: options.scale,
    cityDir,
    workers: options.workers ?? 2,
    command: `npm run bench -- ${argv.join(' ')}`.trim(),
    log,
  });
  log(`speed-up: ingest x${result.ingestSpeedUp}, full scoring x${result.scoringSpeedUp}`);
  const results = readResults(root);
  results.scaleOut = { ...(results.scaleOut ?? {}), [String(options.scale)]: result };
  writeResults(root, results);
  log('wrote docs/benchmarks.json and docs/benchmarks.md');
}

type City = Awaited<ReturnType<typeof ensureCity>> & { gzip: boolean };

/** What a full run works on once the apps are built and the city is ready. */
interface RunSetup {
  database: string;
  url: string;
  cityDir: string;
  city: { buildings: number; gzip: boolean; rows: number };
  redisPrefix: string;
  env: Record<string, string>;
}

/** What a full run measures, in the order it measures it. */
type Measurements = Pick<BenchmarkRun, 'ingest' | 'reingest' | 'scoring' | 'refresh' | 'sodaRefresh' | 'csvCeiling' | 'largestFileToCsvCopyRatio' | 'largestFileAlone' | 'copyCeiling' | 'tables' | 'storage' | 'http'>;

/** What describes a full run besides its measurements. */
type RunHeader = Pick<BenchmarkRun, 'startedAt' | 'command' | 'commit' | 'machine' | 'loadAverageAtStart' | 'database' | 'city'>;

/** Writes docs/benchmarks.md again from docs/benchmarks.json, measuring nothing. */
function renderOnly(): void {
  const root = repoRoot();
  writeResults(root, readResults(root));
  log('wrote docs/benchmarks.md from docs/benchmarks.json');
}

/** The commit the run's code is built from, or undefined outside a git checkout. */
function headCommit(root: string): string | undefined {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

async function run(options: BenchOptions, argv: string[]): Promise<void> {
  if (options.renderOnly) return renderOnly();
  if (options.sizesOnly) return remeasureSizes(options);
  if (options.workers) return compareWorkers(options, argv);
  if (options.httpOnly) return rerunHttp(options, argv);
  if (options.portfolioGraph) return benchmarkPortfolioGraph(options);
  if (options.searchScaling) return benchmarkSearchScaling(options, argv);
  return benchmarkCity(options, argv);
}

/** Only search, at 1%, 10% and the whole city in one run, on scratch databases of buildings and scores. */
async function benchmarkSearchScaling(options: BenchOptions, argv: string[]): Promise<void> {
  const root = repoRoot();
  if (options.build) buildProjects(['api']);
  const machine = describeMachine({ postgres: await serverVersion(options.adminUrl), redis: await redisVersion(options.redisUrl) });
  const commit = headCommit(root);
  const result = await measureSearchScaling({
    adminUrl: options.adminUrl,
    redisPrefix: `bhis_bench_${randomBytes(4).toString('hex')}`,
    connections: options.connections,
    header: { command: `npm run bench -- ${argv.join(' ')}`.trim(), ...(commit ? { commit } : {}), machine },
    log,
  });
  const results = readResults(root);
  results.searchScaling = result;
  writeResults(root, results);
  log('wrote docs/benchmarks.json and docs/benchmarks.md');
}

/** Only the rebuild of the landlord portfolios, on registrations and contacts seeded in a database of its own. */
async function benchmarkPortfolioGraph(options: BenchOptions): Promise<void> {
  const registrations = typeof options.portfolioGraph === 'number' ? options.portfolioGraph : CITY_REGISTRATIONS;
  log(`seeding ${registrations} registrations with 4 contacts each`);
  const result = await measurePortfolioGraph(options.adminUrl, options.database ?? 'bhis_bench_portfolio_graph', registrations);
  const { rebuild } = result;
  log(`seeded in ${result.seedSeconds.toFixed(1)} s`);
  process.stdout.write(
    `portfolio graph: ${result.registrations} registrations, ${result.contacts} contacts -> ${rebuild.portfolios} portfolios ` +
      `(${rebuild.shared} of 2+ buildings, ${rebuild.buildings} buildings) in ${rebuild.seconds.toFixed(1)} s\n`,
  );
}

function loadAverage(): number[] {
  return os.loadavg().map((l) => Math.round(l * 100) / 100);
}

/** The whole benchmark on a fresh database: ingest, scoring, COPY ceilings, disk and HTTP. */
async function benchmarkCity(options: BenchOptions, argv: string[]): Promise<void> {
  const root = repoRoot();
  const startedAt = new Date().toISOString();
  const loadAverageAtStart = loadAverage();
  if (options.build) {
    log('building api, ingest, scoring and cli');
    buildProjects(['api', 'ingest', 'scoring', 'cli']);
  }
  const database = options.database ?? `bhis_bench_${String(options.scale).replace('.', '_')}`;
  const url = databaseUrl(options.adminUrl, database);
  const machine = describeMachine({ postgres: await serverVersion(options.adminUrl), redis: await redisVersion(options.redisUrl) });
  const { city, cityDir } = await prepareCity(root, options);
  const redisPrefix = `bhis_bench_${randomBytes(4).toString('hex')}`;
  const cityShape = { buildings: city.report.buildings, gzip: city.gzip, rows: city.report.totalRows };
  const setup: RunSetup = { database, url, cityDir, city: cityShape, redisPrefix, env: { DATABASE_URL: url, REDIS_URL: options.redisUrl, REDIS_PREFIX: redisPrefix, SCORING_PROCESSES: String(options.scoringProcesses) } };
  const pool = new Pool({ connectionString: url, max: 2 });
  try {
    if (!options.reuseData) {
      log(`database ${database}: recreate and migrate`);
      await recreateDatabase(options.adminUrl, database);
    }
    const header: RunHeader = { startedAt, command: `npm run bench -- ${argv.join(' ')}`.trim(), commit: headCommit(root), machine, loadAverageAtStart, database, city: citySummary(city) };
    // a long run (the whole city takes hours) is written as each step ends, marked incomplete until the last
    let measured: Measurements = { ingest: null, reingest: null, scoring: null, refresh: null, sodaRefresh: null, csvCeiling: null, largestFileToCsvCopyRatio: null, largestFileAlone: null, copyCeiling: null, tables: [], storage: null, http: null };
    const progress: Progress = (step) => {
      measured = { ...measured, ...step };
      recordRun(root, options.scale, header, measured, true);
    };
    recordRun(root, options.scale, header, await measureCity(options, setup, pool, progress));
  } finally {
    await pool.end();
  }
}

async function prepareCity(root: string, options: BenchOptions): Promise<{ city: City; cityDir: string }> {
  const buildings = Math.round(options.scale * BUILDINGS_PER_PERCENT);
  const gzip = options.gzip ?? options.scale >= 10;
  const cityDir = path.join(options.dataDir ? path.resolve(options.dataDir) : path.join(root, 'data/bench'), `city-${options.scale}${gzip ? '-gz' : ''}`);
  log(`city: ${buildings} buildings in ${cityDir}${gzip ? ' (gzip)' : ''}`);
  // the refresh is generated beside the city, one process each: at 100% each takes ~20 min of a core
  const refresh = options.refresh && !options.reuseData ? Promise.all([ensureRefresh(cityDir, buildings, gzip), ensureSodaRefresh(cityDir, buildings, gzip)]) : null;
  refresh?.catch(() => undefined);
  const city = { ...(await ensureCity(cityDir, buildings, gzip)), gzip };
  log(`city ${city.reused ? 'reused' : 'generated'}: ${city.report.totalRows} rows, ${Math.round(city.report.totalBytes / 1e6)} MB`);
  if (refresh) {
    const [changes, soda] = await refresh;
    log(`refresh ${changes.reused ? 'reused' : 'generated'}: ${changes.report.totalRows} rows; the one served as SODA ${soda.changes.reused ? 'reused' : 'generated'}: ${soda.changes.report.totalRows} rows`);
  }
  return { city, cityDir };
}

function citySummary(city: City): CitySummary {
  return {
    buildings: city.report.buildings,
    seed: String(city.report.seed),
    asOf: city.report.asOf,
    files: city.report.files.filter((f) => f.source !== 'truth').length,
    rows: city.report.totalRows,
    eventRows: city.report.eventRows,
    bytes: city.report.totalBytes,
    eventsPerBuilding: city.report.eventsPerBuilding,
    generationSeconds: Math.round(city.report.elapsedMs / 100) / 10,
    generationCommand: city.command,
    reused: city.reused,
  };
}

/** Records the steps measured so far. */
type Progress = (step: Partial<Measurements>) => void;

async function measureCity(options: BenchOptions, setup: RunSetup, pool: Pool, progress: Progress): Promise<Measurements> {
  const { ingest, reingest, scoring, refresh, sodaRefresh } = await ingestAndScore(options, setup, pool, progress);
  const { csvCeiling, largestFileToCsvCopyRatio } = await measureLargestFileCeiling(setup, ingest);
  const largestFileAlone = await loadLargestFileAlone(options, setup, ingest, csvCeiling?.rowsPerSecond ?? null);
  progress({ csvCeiling, largestFileToCsvCopyRatio, largestFileAlone });
  const copyCeiling = await measureEventsCopyCeiling(setup, options.scale);
  await pool.query('VACUUM (ANALYZE)');
  const tables = await tableSizes(pool);
  const storage = await eventStorage(pool);
  log(`storage: ${storage.eventBytesPerRow} bytes per event all-in; database ${storage.databaseBytesPerEvent} bytes per event`);
  const http = options.http ? await measureHttp(options, setup, pool) : null;
  return { ingest, reingest, scoring, refresh, sodaRefresh, csvCeiling, largestFileToCsvCopyRatio, largestFileAlone, copyCeiling, tables, storage, http };
}

/** Loads of the largest file alone take ~25 min on the whole city: measured up to 10%. */
const LARGEST_FILE_ALONE_MAX_SCALE = 10;

async function loadLargestFileAlone(options: BenchOptions, { database, cityDir, env }: RunSetup, ingest: IngestResult, csvCopyRowsPerSecond: number | null): Promise<LargestFileAlone | null> {
  if (!ingest.largestFile || options.scale > LARGEST_FILE_ALONE_MAX_SCALE || options.reuseData) return null;
  log(`the largest file (${ingest.largestFile}) loaded alone, after the building files, into a fresh database`);
  const alone = await measureLargestFileAlone({
    adminUrl: options.adminUrl,
    database: `${database}_alone`,
    cityDir,
    largestFile: ingest.largestFile,
    env,
    csvCopyRowsPerSecond,
    startWorker: (workerEnv) => startWorker('ingest', workerEnv),
  });
  log(`largest file alone: ${alone.rows} rows in ${alone.seconds} s = ${alone.rowsPerSecond} rows/s = ${alone.csvCopyRatio ?? '?'} of its raw COPY`);
  return alone;
}

/**
 * Ingest (or the figures of the earlier ingest with --reuse-data), then a full and an incremental
 * scoring run, then the two refreshes ingested and rescored, by the real workers: one written as
 * files, then the next 28 days downloaded from a local Socrata stand-in (the ingest worker runs
 * with its environment throughout; a file ingest never reads it).
 */
async function ingestAndScore(
  options: BenchOptions,
  { url, cityDir, city, env }: RunSetup,
  pool: Pool,
  progress: Progress,
): Promise<Pick<Measurements, 'ingest' | 'reingest' | 'scoring' | 'refresh' | 'sodaRefresh'> & { ingest: IngestResult }> {
  const refreshes = options.refresh && !options.reuseData;
  const mirror = refreshes ? new SocrataMirror(mirrorDir(cityDir)) : null;
  await mirror?.start();
  const mirrorEnv = mirror ? mirrorWorkerEnv(mirror, url, env.REDIS_PREFIX) : {};
  const ingestWorker = startWorker('ingest', { ...env, ...mirrorEnv });
  const scoringWorker = startWorker('scoring', env);
  try {
    await ingestWorker.waitFor('ingest worker started');
    await scoringWorker.waitFor('scoring worker started');
    const { ingest, reingest } = await loadCity(options, { url, cityDir, env }, pool, ingestWorker);
    progress({ ingest, reingest });
    log('scoring: full');
    const full = await scoreFull(env, scoringWorker);
    log(`scoring full: ${full.buildings} buildings in ${full.seconds} s`);
    const incremental = await scoreIncremental(pool, 0.02, env, scoringWorker);
    log(`scoring incremental: ${incremental.buildings} buildings in ${incremental.seconds} s`);
    progress({ scoring: { full, incremental } });
    const workers = { ingest: ingestWorker, scoring: scoringWorker };
    const refresh = refreshes ? await refreshCity(pool, { dir: cityDir, ...city }, env, workers) : null;
    if (refresh) log(`refresh: ${refresh.rows} rows ingested in ${refresh.ingestSeconds} s, ${refresh.scoring.buildings} buildings rescored in ${refresh.scoring.seconds} s`);
    progress({ refresh });
    const sodaRefresh = mirror ? await refreshCityBySoda({ dir: cityDir, ...city }, env, workers, mirror) : null;
    if (sodaRefresh) log(`refresh through SODA: ${sodaRefresh.rows} rows of ${sodaRefresh.sources} sources downloaded in ${sodaRefresh.ingestSeconds} s (${sodaRefresh.rowsPerSecond} rows/s), ${sodaRefresh.scoring.buildings} buildings rescored in ${sodaRefresh.scoring.seconds} s`);
    progress({ sodaRefresh });
    return { ingest, reingest, scoring: { full, incremental }, refresh, sodaRefresh };
  } finally {
    await ingestWorker.stop();
    await scoringWorker.stop();
    await mirror?.stop();
  }
}

/** The city's files through the ingest worker (or the figures of the earlier ingest with --reuse-data), then one of them again. */
async function loadCity(options: BenchOptions, { url, cityDir, env }: Pick<RunSetup, 'url' | 'cityDir' | 'env'>, pool: Pool, worker: NodeProcess): Promise<Pick<Measurements, 'reingest'> & { ingest: IngestResult }> {
  let ingest: IngestResult;
  if (options.reuseData) {
    log('ingest: reusing the data of the earlier run (figures read back from ingest_runs)');
    ingest = await ingestResultFromRuns(pool, cityDir);
  } else {
    log('ingest through the ingest worker');
    ingest = await ingestCity(cityDir, env, worker);
  }
  log(`ingest: ${ingest.rows} rows in ${ingest.wallSeconds.toFixed(1)} s = ${ingest.rowsPerSecond} rows/s, ${ingest.megabytesPerSecond} MB/s`);
  // the city's unchanged file loaded again whole changes no record: the scoring that follows is the same
  const reingest = options.reuseData ? null : await measureReingest({ url, cityDir, env, worker });
  if (reingest) log(`re-ingest of the unchanged ${reingest.file}: ${reingest.rows} rows in ${reingest.seconds} s = ${reingest.rowsPerSecond} rows/s = ${reingest.ratio} of its raw COPY (${reingest.ceiling.rowsPerSecond} rows/s)`);
  return { ingest, reingest };
}

/** The largest source file COPY'd as it is, and how the ingest of that file compares with it. */
async function measureLargestFileCeiling({ url, cityDir }: RunSetup, ingest: IngestResult): Promise<Pick<Measurements, 'csvCeiling' | 'largestFileToCsvCopyRatio'>> {
  if (!ingest.largestFile) return { csvCeiling: null, largestFileToCsvCopyRatio: null };
  log(`raw COPY of the largest file (${ingest.largestFile}) into an unlogged all-text table`);
  const csvCeiling = await measureCsvCopyCeiling(url, path.join(cityDir, ingest.largestFile));
  const largest = ingest.perSource.find((s) => s.file === ingest.largestFile);
  let largestFileToCsvCopyRatio: number | null = null;
  if (largest && csvCeiling.rowsPerSecond > 0) largestFileToCsvCopyRatio = Math.round((largest.rowsPerSecond / csvCeiling.rowsPerSecond) * 1000) / 1000;
  log(`raw CSV COPY: ${csvCeiling.rows} rows in ${csvCeiling.seconds.toFixed(1)} s = ${csvCeiling.rowsPerSecond} rows/s; ingest of that file = ${largestFileToCsvCopyRatio ?? '?'} of it`);
  return { csvCeiling, largestFileToCsvCopyRatio };
}

async function measureEventsCopyCeiling({ url, cityDir }: RunSetup, scale: number): Promise<CopyCeiling | null> {
  if (scale > 10) {
    log('COPY ceiling of the events table: skipped above 10% (it writes every event to a file first)');
    return null;
  }
  log('COPY ceiling of the events table');
  const copyCeiling = await measureCopyCeiling(url, path.join(cityDir, '..', `events-${scale}.copy`));
  log(`COPY: ${copyCeiling.rows} rows in ${copyCeiling.copyInSeconds.toFixed(1)} s = ${copyCeiling.rowsPerSecond} rows/s`);
  return copyCeiling;
}

async function measureHttp(options: BenchOptions, { url, redisPrefix }: RunSetup, pool: Pool): Promise<HttpBenchmark> {
  log(`HTTP: ${options.connections} connections, ${options.httpSeconds} s per scenario`);
  const targets = await loadTargets(pool);
  return runHttpBenchmark({ databaseUrl: url, redisPrefix, connections: options.connections, secondsPerScenario: options.httpSeconds, targets, log });
}

/** Writes the run into docs/benchmarks.{json,md}; without HTTP figures of its own it keeps those of the run it replaces. */
function recordRun(root: string, scale: number, header: RunHeader, m: Measurements, incomplete = false): void {
  const previous = readResults(root);
  const earlier = previous.runs[String(scale)];
  const result: BenchmarkRun = {
    scalePercent: scale,
    startedAt: header.startedAt,
    finishedAt: new Date().toISOString(),
    command: header.command,
    ...(header.commit ? { commit: header.commit } : {}),
    machine: header.machine,
    loadAverageAtStart: header.loadAverageAtStart,
    database: header.database,
    city: header.city,
    ingest: m.ingest,
    reingest: m.reingest,
    copyCeiling: m.copyCeiling,
    ingestToCopyRatio: null,
    csvCeiling: m.csvCeiling,
    largestFileToCsvCopyRatio: m.largestFileToCsvCopyRatio,
    largestFileAlone: m.largestFileAlone,
    loadAverageAtEnd: loadAverage(),
    storage: m.storage,
    scoring: m.scoring,
    refresh: m.refresh,
    sodaRefresh: m.sodaRefresh,
    tables: m.tables,
    http: m.http ?? earlier?.http ?? null,
    ...(!m.http && earlier?.http ? { httpKeptFrom: earlier.httpKeptFrom ?? earlier.httpAt ?? earlier.startedAt } : {}),
    ...(incomplete ? { incomplete: true } : {}),
  };
  if (result.ingest && result.copyCeiling) result.ingestToCopyRatio = Math.round((result.ingest.rowsPerSecond / result.copyCeiling.rowsPerSecond) * 1000) / 1000;
  previous.runs[String(scale)] = result;
  writeResults(root, previous);
  log(`wrote docs/benchmarks.json and docs/benchmarks.md${incomplete ? ' (the run so far)' : ''}`);
}

function readResults(root: string): BenchmarkFile {
  const file = path.join(root, 'docs/benchmarks.json');
  if (!existsSync(file)) return { runs: {} };
  return JSON.parse(readFileSync(file, 'utf8')) as BenchmarkFile;
}

function writeResults(root: string, results: BenchmarkFile): void {
  mkdirSync(path.join(root, 'docs'), { recursive: true });
  writeFileSync(path.join(root, 'docs/benchmarks.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(path.join(root, 'docs/benchmarks.md'), renderMarkdown(results));
}

const program = new Command('bench')
  .description('Benchmark ingest, scoring and the HTTP API on a synthetic city; writes docs/benchmarks.{json,md}')
  .option('--scale <percent>', 'city size in percent of New York (1 = 4,450 buildings)', positive, 1)
  .option('--connections <n>', 'concurrent HTTP connections', (v) => Math.max(1, Number(v)), 32)
  .option('--http-seconds <n>', 'seconds per HTTP scenario', (v) => Math.max(1, Number(v)), 12)
  .option('--no-http', 'skip the HTTP benchmarks')
  .option('--no-refresh', 'skip the refresh (about 1% of the rows new or changed, ingested and rescored) after the city load')
  .option('--reuse-data', 'keep the database of an earlier run: no ingest (its figures are read back from ingest_runs); scoring, COPY and HTTP run again')
  .option('--no-build', 'use the existing builds of the apps')
  .option('--http-only', 'only run the HTTP benchmarks again, on the existing benchmark database')
  .option('--lookup-only', 'with --http-only: only the lookup (200, 401, 429) and the bare servers it is compared with')
  .option('--database <name>', 'the benchmark database (default bhis_bench_<scale>)')
  .option('--render-only', 'only write docs/benchmarks.md again from docs/benchmarks.json (no database, nothing measured)')
  .option('--sizes-only', 'only measure the table and index sizes (and bytes per event) of the existing benchmark database again')
  .option('--data-dir <dir>', 'where the synthetic city is written (default data/bench in the repository)')
  .option('--workers <n>', 'only compare one ingest and one scoring worker with N of each on the same city (fresh databases bhis_bench_<scale>_workers<n>)', (v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 2 || n > 8) throw new InvalidArgumentError('must be 2-8');
    return n;
  })
  .option('--scoring-processes <n>', 'processes of the scoring worker (SCORING_PROCESSES)', (v) => Math.max(1, Math.floor(Number(v)) || 1), os.availableParallelism())
  .option('--gzip', 'write and ingest the city gzip-compressed (the default from --scale 10 on)')
  .option('--no-gzip', 'write and ingest plain CSV whatever the scale')
  .option('--portfolio-graph [registrations]', `only time the rebuild of the landlord portfolios from N seeded registrations with 4 contacts each (default ${CITY_REGISTRATIONS}, the whole city)`, (v) => Math.max(1, Math.floor(Number(v)) || CITY_REGISTRATIONS))
  .option('--search-scaling', 'only search, at 1%, 10% and the whole city (4,450, 44,500 and 445,000 buildings) in one run, on scratch databases of buildings and scores')
  .option('--admin-url <url>', 'Postgres maintenance database', process.env.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres')
  .option('--redis-url <url>', 'Redis', process.env.REDIS_URL ?? 'redis://127.0.0.1:6379')
  .action(async (options: BenchOptions) => run(options, process.argv.slice(2)));

program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
