import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { parse } from 'csv-parse/sync';
import { Pool } from 'pg';
import { migrate } from '@bhis/db';
import { loadSource } from '@bhis/ingestion';
import {
  BaselineBacktest,
  backtestAgainstBaselines,
  calibrate,
  calibrateConfidence,
  CalibrationResult,
  ConfidenceFit,
  calibrationSamples,
  eventOutcomes,
  TruthRow,
  validateModel,
  ValidationReport,
} from '@bhis/score-runner';
import { FITTED_MODEL, fittedConstantsSource } from '@bhis/scoring';
import { getSource } from '@bhis/sources';
import { DEFAULT_AS_OF, generateCity } from '@bhis/synth';
import { config } from '../context';
import { printJson } from '../output';
import { recognisedFiles } from './ingest';
import { createRun, syncSourceCatalog } from '@bhis/runs';
import { renderValidation, SeedMeasure } from './validate-report';

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 100 || n > 445_000) throw new InvalidArgumentError('must be 100-445000');
  return n;
}

const P_COLUMN = /^p_serious_12m_after_(\d{4}-\d{2}-\d{2})$/;

export function readTruth(file: string): Map<string, TruthRow> {
  const rows = parse(readFileSync(file), { columns: true }) as Record<string, string>[];
  return new Map(
    rows.map((r) => [
      r.bbl,
      {
        bbl: r.bbl,
        latentAsOf: Number(r.latent_as_of),
        seriousAfterCut: r.serious_12m_after_cut === '1',
        seriousDays: (r.serious_days ?? '').split(';').filter(Boolean),
        publicHousing: r.public_housing === '1',
        probabilityAfter: Object.fromEntries(
          Object.entries(r).flatMap(([key, value]) => {
            const date = P_COLUMN.exec(key)?.[1];
            return date === undefined ? [] : [[date, Number(value)]];
          }),
        ),
      },
    ]),
  );
}

/** The truth file's validation cut dates (its p_serious_12m_after_YYYY-MM-DD columns), oldest first. */
function truthCuts(truth: Map<string, TruthRow>): string[] {
  const first = truth.values().next().value as TruthRow | undefined;
  return Object.keys(first?.probabilityAfter ?? {}).sort();
}

/** Loads every file of a generated city into a migrated database (or only the files of `sources`), observed on `observedOn`. */
export async function loadCity(pool: Pool, dir: string, sources?: ReadonlySet<string>, observedOn: string = DEFAULT_AS_OF): Promise<void> {
  await syncSourceCatalog(pool);
  for (const { file, source } of recognisedFiles(dir).filter((f) => sources === undefined || sources.has(f.source))) {
    const runId = await createRun(pool, { source, trigger: 'cli', input: file });
    await loadSource(pool, getSource(source), { kind: 'csv', stream: createReadStream(file), totalBytes: (await stat(file)).size }, { runId, observedOn });
  }
}

const daysBefore = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);

/**
 * The dates of a loaded city without a truth file: the as-of date is the last day with a record, and the
 * cut dates are 1, 2 and 3 times 365 days before it, each with a year of outcomes on file after it.
 */
export async function datesOfLoadedCity(pool: Pool): Promise<{ asOf: string; cuts: string[] }> {
  const { rows } = await pool.query<{ last: string | null; first: string | null }>(
    `SELECT to_char(max(occurred_on), 'YYYY-MM-DD') AS last, to_char(min(occurred_on), 'YYYY-MM-DD') AS first FROM events WHERE occurred_on <= now()::date`,
  );
  const { last, first } = rows[0];
  if (last === null || first === null) throw new InvalidArgumentError('the database holds no events: load the city first (bhis ingest)');
  const cuts = [1, 2, 3].map((years) => daysBefore(last, 365 * years)).filter((cut) => cut > first).sort();
  if (cuts.length === 0) throw new InvalidArgumentError('the events on file span less than a year: no cut date has a year of outcomes after it');
  return { asOf: last, cuts };
}

/** The validation of a loaded city: the backtest at one year, and the baselines at the cut dates. */
export async function measureCity(
  pool: Pool,
  options: { truth?: Map<string, TruthRow>; asOf: string; cuts: string[] },
): Promise<{ report: ValidationReport; backtest: BaselineBacktest }> {
  const report = await validateModel(pool, { asOf: options.asOf, cut: options.cuts[options.cuts.length - 1], truth: options.truth });
  const backtest = await backtestAgainstBaselines(pool, { cuts: options.cuts, asOf: options.asOf, truth: options.truth });
  return { report, backtest };
}

/** The outcome labels of a city: the truth file's serious days, or serious outcomes from the events. */
async function labelsOf(pool: Pool, truth: Map<string, TruthRow> | undefined, cut: string): Promise<(bbl: string) => boolean | undefined> {
  const until = new Date(Date.parse(`${cut}T00:00:00Z`) + 365 * 86_400_000).toISOString().slice(0, 10);
  if (truth) return (bbl) => (truth.has(bbl) ? (truth.get(bbl)?.seriousDays ?? []).some((d) => d > cut && d <= until) : undefined);
  const outcomes = await eventOutcomes(pool, cut);
  return (bbl) => outcomes.has(bbl);
}

/** Fits the model's constants on the earliest cut date of a loaded city (its buildings scored there at every half-life factor). */
export async function fitOnCity(pool: Pool, options: { truth?: Map<string, TruthRow>; cut: string }): Promise<CalibrationResult> {
  const label = await labelsOf(pool, options.truth, options.cut);
  return calibrate(await calibrationSamples(pool, options.cut, (bbl) => label(bbl)));
}

const CONSTANTS_FILE = 'libs/scoring/src/fitted-constants.ts';
const GRADE_RATES_FILE = 'libs/scoring/src/grade-outcome-rates.ts';

/** The measured outcome rate of each grade per unit band of the synthetic cities, for docs/methodology.md. */
function writeGradeRates(measures: readonly SeedMeasure[], measuredBy: string): void {
  const cities = measures.filter((m) => m.synthetic).map((m) => ({ seed: m.seed, buildings: m.buildings, rows: m.backtest.grade_outcomes }));
  if (cities.length === 0) return;
  writeFileSync(
    GRADE_RATES_FILE,
    `// Written by \`bhis validate --write\` (tools/cli/src/commands/validate.ts); docs/methodology.md, Total score.
export const GRADE_OUTCOME_RATES: {
  measured_by: string | null;
  cities: { seed: string; buildings: number; rows: { band: string; grade: string; buildings: number; realized_rate: number; expected_rate: number | null }[] }[];
} = ${JSON.stringify({ measured_by: measuredBy, cities }, null, 2)};
`,
  );
}

interface ValidateOptions {
  buildings: number;
  seeds: string;
  write?: string;
  json?: boolean;
  calibrate?: boolean;
  database: string;
  loaded?: boolean;
}

async function freshDatabase(name: string): Promise<string> {
  const cfg = config();
  const url = new URL(cfg.DATABASE_URL);
  url.pathname = `/${name}`;
  const admin = new Pool({ connectionString: cfg.DATABASE_URL.replace(/\/[^/]*$/, '/postgres'), max: 1 });
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
  await migrate(url.toString());
  return url.toString();
}

function databaseUrl(name: string): string {
  const url = new URL(config().DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A synthetic city of the seed, generated once into DATA_DIR and loaded into a fresh database. */
async function syntheticCity(options: ValidateOptions, seed: string, say: (line: string) => void): Promise<{ pool: Pool; truth: Map<string, TruthRow> }> {
  const dir = path.resolve(config().DATA_DIR, `validation-city-${options.buildings}-${seed}`);
  if (!existsSync(path.join(dir, 'truth.csv')) || !/p_serious_12m_after_cut/.test(readFileSync(path.join(dir, 'truth.csv'), 'utf8').slice(0, 4000))) {
    say(`Generating a city of ${options.buildings} buildings (seed ${seed}) in ${dir}...`);
    await generateCity({ buildings: options.buildings, seed, outDir: dir });
  }
  const pool = new Pool({ connectionString: await freshDatabase(options.database), max: 8 });
  say(`Loading the city of seed ${seed}...`);
  await loadCity(pool, dir);
  return { pool, truth: readTruth(path.join(dir, 'truth.csv')) };
}

function commandLine(options: ValidateOptions): string {
  return options.loaded
    ? `npm run bhis -- validate --loaded --database ${options.database}${options.calibrate ? ' --calibrate' : ''}${options.write ? ` --write ${options.write}` : ''}`
    : `npm run bhis -- validate --buildings ${options.buildings} --seeds ${options.seeds}${options.calibrate ? ' --calibrate' : ''}${options.write ? ` --write ${options.write}` : ''}`;
}

/** Writes the fitted constants; true when they changed (the scorer of this process still has the old ones). */
function writeConstants(result: CalibrationResult, fittedBy: string): boolean {
  const same = JSON.stringify(result.fitted) === JSON.stringify(result.current);
  if (same && FITTED_MODEL.fitted_by === fittedBy) return false;
  writeFileSync(CONSTANTS_FILE, fittedConstantsSource({ fitted_by: fittedBy, ...result.fitted }));
  return !same;
}

/** Writes the confidence's fitted constants beside the total's; true when they changed. */
function writeConfidenceConstants(result: ConfidenceFit, fittedBy: string): boolean {
  const same = JSON.stringify(result.fitted) === JSON.stringify(result.current);
  if (same && FITTED_MODEL.fitted_by === fittedBy) return false;
  writeFileSync(CONSTANTS_FILE, fittedConstantsSource({ ...FITTED_MODEL, fitted_by: fittedBy, confidence: result.fitted }));
  return !same;
}

/**
 * The measuring run again in a child process, whose scorer is rebuilt with the constants just written.
 * `stage`: what the child still fits (`confidence` after the total's constants, nothing after those).
 */
function remeasure(stage: 'confidence' | 'done'): number {
  const args = process.argv.slice(2).filter((a) => a !== '--calibrate');
  const child = spawnSync(process.execPath, [path.resolve('tools/build/run.js'), 'cli', ...args], {
    stdio: 'inherit',
    env: { ...process.env, BHIS_VALIDATE_AFTER_FIT: stage },
  });
  return child.status ?? 1;
}

export function validateCommand(): Command {
  return new Command('validate')
    .description('Measure the model against simple rules and the Bayes ranking on synthetic cities (or a loaded city), optionally refitting its constants')
    .option('--buildings <n>', 'size of each synthetic city', positiveInt, 4450)
    .option('--seeds <list>', 'seeds of the synthetic cities, comma-separated; the first is the training city of --calibrate', 'validation,second')
    .option('--write <file>', 'write the report as markdown (e.g. docs/methodology-validation.md)')
    .option('--json', 'print the report as JSON')
    .option('--calibrate', `fit the total's constants on the first city's earliest cut date and write ${CONSTANTS_FILE}`)
    .option('--database <name>', 'database to (re)create for each synthetic city, or the loaded city with --loaded', 'bhis_validation')
    .option('--loaded', 'measure (and fit on) the city already loaded in --database: no truth file, labels and cut dates from its events')
    .action(async (options: ValidateOptions) => {
      if (!/^[a-z_][a-z0-9_]*$/.test(options.database)) throw new InvalidArgumentError('--database: lower-case letters, digits and _');
      const started = Date.now();
      const say = (line: string) => void (!options.json && process.stdout.write(`${line}\n`));
      const seeds = options.loaded ? ['loaded'] : options.seeds.split(',').map((s) => s.trim()).filter(Boolean);
      const measures: SeedMeasure[] = [];
      let fit: CalibrationResult | null = null;
      for (const [i, seed] of seeds.entries()) {
        const { pool, truth } = options.loaded
          ? { pool: new Pool({ connectionString: databaseUrl(options.database), max: 8 }), truth: undefined }
          : await syntheticCity(options, seed, say);
        let ended = false;
        try {
          const dates = truth ? { asOf: DEFAULT_AS_OF, cuts: truthCuts(truth) } : await datesOfLoadedCity(pool);
          const fitted = `${commandLine({ ...options, calibrate: true })} (seed ${seed}, cut ${dates.cuts[0]})`;
          if (options.calibrate && i === 0) {
            say(`Fitting the total's constants at ${dates.cuts[0]} (seed ${seed})...`);
            fit = await fitOnCity(pool, { truth, cut: dates.cuts[0] });
            if (writeConstants(fit, fitted)) {
              // the measuring run recreates the database: this process leaves it first
              await pool.end();
              ended = true;
              say(`The fitted constants changed (${CONSTANTS_FILE}); measuring them with the rebuilt scorer...`);
              process.exitCode = remeasure('confidence');
              return;
            }
          }
          if ((options.calibrate || process.env.BHIS_VALIDATE_AFTER_FIT === 'confidence') && i === 0) {
            const next = dates.cuts[1] ?? dates.asOf;
            say(`Fitting the confidence's constants at ${dates.cuts[0]} against ${next} (seed ${seed})...`);
            const confidenceFit = await calibrateConfidence(pool, dates.cuts[0], next);
            say(`Training coverage of the interval: ${confidenceFit.coverage.map((c) => `${c.tier} ${c.coverage} (${c.samples})`).join(', ')}`);
            if (writeConfidenceConstants(confidenceFit, fitted)) {
              await pool.end();
              ended = true;
              say(`The confidence's fitted constants changed (${CONSTANTS_FILE}); measuring them with the rebuilt scorer...`);
              process.exitCode = remeasure('done');
              return;
            }
          }
          say(`Scoring seed ${seed} at ${dates.cuts.join(', ')} and ${dates.asOf}, and measuring...`);
          const { report, backtest } = await measureCity(pool, { truth, ...dates });
          measures.push({ seed, buildings: report.buildings, report, backtest, synthetic: truth !== undefined });
        } finally {
          if (!ended) await pool.end();
        }
      }
      const seconds = (Date.now() - started) / 1000;
      const calibrated = options.calibrate === true || process.env.BHIS_VALIDATE_AFTER_FIT !== undefined;
      if (options.write) {
        writeFileSync(options.write, renderValidation(measures, { command: commandLine({ ...options, calibrate: calibrated }), seconds }));
        writeGradeRates(measures, commandLine({ ...options, calibrate: calibrated }));
      }
      if (options.json) printJson({ seeds: measures, fit });
      else say(JSON.stringify(measures.map((m) => ({ seed: m.seed, cuts: m.backtest.cuts.map((c) => ({ cut: c.cut, headroom: c.bands.map((b) => [b.band, b.headroom_closed]), pooled: c.pooled_precision.headroom_closed })) })), null, 2));
    });
}
