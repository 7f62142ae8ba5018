import { createReadStream, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { parse } from 'csv-parse/sync';
import { Pool } from 'pg';
import { migrate } from '@bhis/db';
import { SCORER_ID } from '@bhis/domain';
import { loadSource } from '@bhis/ingestion';
import {
  ACTIONABLE_PER_100K_UNITS,
  BASELINE_DESCRIPTIONS,
  BASELINES,
  BaselineBacktest,
  backtestAgainstBaselines,
  calibrate,
  CalibrationResult,
  calibrationSamples,
  TruthRow,
  validateModel,
  ValidationReport,
} from '@bhis/score-runner';
import { getSource } from '@bhis/sources';
import { DEFAULT_AS_OF, generateCity } from '@bhis/synth';
import { config } from '../context';
import { printJson } from '../output';
import { recognisedFiles } from './ingest';
import { createRun, syncSourceCatalog } from '@bhis/runs';

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 100 || n > 445_000) throw new InvalidArgumentError('must be 100-445000');
  return n;
}

function readTruth(file: string): Map<string, TruthRow> {
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
        latentByYear: Object.fromEntries(
          Object.entries(r)
            .filter(([key]) => /^latent_\d{4}$/.test(key))
            .map(([key, value]) => [Number(key.slice(7)), Number(value)]),
        ),
      },
    ]),
  );
}

const MODELS = ['score', ...BASELINES] as const;

/** Per cut date: one AUC table and one precision table, bands as rows; the best baseline and the margin. */
function renderBaselines(backtest: BaselineBacktest): string {
  const out: string[] = [];
  let bandsMet = 0;
  let ceilingMet = 0;
  let bandsTotal = 0;
  for (const { cut, bands, public_housing: publicHousing } of backtest.cuts) {
    out.push(`### Cut date ${cut} (outcomes in the 12 months after it; ${publicHousing} public housing buildings left out)`, '');
    out.push(`| Band | Buildings | Positives | k | AUC: ${MODELS.join(' | ')} | Score - best baseline | Ceiling (hidden condition) | Ceiling - best baseline |`);
    out.push(`|${'---|'.repeat(MODELS.length + 7)}`);
    for (const b of bands) {
      const best = Math.max(...BASELINES.map((m) => (Number.isFinite(b.auc[m]) ? b.auc[m] : 0)));
      const margin = b.auc.score - best;
      bandsTotal++;
      if (margin >= 0.05) bandsMet++;
      if (b.ceiling.auc - best >= 0.05) ceilingMet++;
      out.push(
        `| ${b.band} | ${b.buildings} | ${b.positives} | ${b.k} | ${MODELS.map((m) => fmt(b.auc[m])).join(' | ')} | ${fmt(margin)} | ${fmt(b.ceiling.auc)} | ${fmt(b.ceiling.auc - best)} |`,
      );
    }
    out.push('');
    out.push(`| Band | k | Precision at k: ${MODELS.join(' | ')} | Score / best baseline | Ceiling (hidden condition) / best baseline |`);
    out.push(`|${'---|'.repeat(MODELS.length + 4)}`);
    for (const b of bands) {
      const best = Math.max(...BASELINES.map((m) => (Number.isFinite(b.precision_at_k[m]) ? b.precision_at_k[m] : 0)));
      const ratio = (x: number) => (best > 0 && Number.isFinite(x) ? (x / best).toFixed(2) : 'n/a');
      out.push(`| ${b.band} | ${b.k} | ${MODELS.map((m) => fmt(b.precision_at_k[m])).join(' | ')} | ${ratio(b.precision_at_k.score)} | ${ratio(b.ceiling.precision_at_k)} |`);
    }
    out.push('');
  }
  out.unshift(
    `Bands and cut dates where the score beats the best baseline's AUC by 0.05 or more: ${bandsMet} of ${bandsTotal}; where the hidden condition itself does: ${ceilingMet} of ${bandsTotal}.`,
    '',
  );
  return out.join('\n');
}

function fmt(x: number): string {
  return Number.isFinite(x) ? x.toFixed(3) : 'n/a';
}

function renderCalibration(backtest: BaselineBacktest): string {
  const rows = backtest.calibration.map(
    (c) => `| ${c.tier} | ${c.buildings} | ${c.mean_move_next_refresh} | ${c.share_grade_changed_next_refresh} | ${c.share_same_grade_next_cut} |`,
  );
  return [
    '| Confidence tier (at the cut) | Building-cuts | Mean move of total_score at the refresh a month later | Share changing grade at that refresh | Share with the same grade 12 months later |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

const pct = (n: number, of: number) => (of ? `${((100 * n) / of).toFixed(1)}%` : 'n/a');

/** The measures of the one-year backtest and the anchors, and which buildings they leave out. */
function renderResults(report: ValidationReport): string {
  const ph = report.public_housing;
  const phGrades = ['A', 'B', 'C', 'D', 'F'].filter((g) => ph.grade_distribution[g]).map((g) => `${g}: ${ph.grade_distribution[g]}`).join(', ') || 'none';
  return `## Results

| Measure | Value |
|---|---|
| Public housing (HPD ManagementProgram NYCHA or a Housing Authority owner): graded, not ranked (below) | ${ph.buildings} buildings${ph.truth_marked === null ? '' : ` (truth.csv marks ${ph.truth_marked})`}; grades ${phGrades} |
| Spearman correlation of total_score with the latent distress (as of ${report.as_of}) | ${report.spearman_latent ?? 'n/a'} |
| Backtest AUC: score as of the cut vs serious outcomes in the next 12 months (from events) | ${report.backtest.auc_event_outcomes} |
| Precision in the worst 5% (events) | ${report.backtest.precision_worst_5pct} (base rate ${report.backtest.outcome_rate}) |
| Backtest AUC against the truth file's outcomes | ${report.backtest.auc_truth_outcomes ?? 'n/a'} |
| Precision in the worst 5% (truth) | ${report.backtest.precision_worst_5pct_truth ?? 'n/a'} |
| Buildings meeting the HPD AEP selection criteria | ${report.anchors.aep_qualifying}, of which graded D or F: ${report.anchors.aep_qualifying_graded_d_or_f} (${pct(report.anchors.aep_qualifying_graded_d_or_f, report.anchors.aep_qualifying)}) |
| "Clean" buildings (no open B/C violations, no complaint in a year, valid registration) | ${report.anchors.clean}, of which graded D or F: ${report.anchors.clean_graded_d_or_f} (${pct(report.anchors.clean_graded_d_or_f, report.anchors.clean)}) |

Serious outcomes (from events, after the cut): an HPD, FDNY or DOB vacate order, entry into AEP or
UCP, an emergency repair of $1,000 or more (disaster repairs excluded), or a month with at least
max(3, 15% of units) class C violations.

Public housing is graded (it is in the grade distribution below) but not ranked: HPD does not inspect or enforce there,
so the HPD records the score is built from do not exist for it, and the scorer holds its grade between B and D at the
lowest confidence (docs/methodology.md, Known limits). The harness finds it with the scorer's own rule on the loaded
facts and leaves it out of the Spearman correlation, both backtests, the anchors, the baseline bands and the weight
calibration; the confidence calibration keeps it, in the \`insufficient\` tier.`;
}

function render(
  report: ValidationReport,
  backtest: BaselineBacktest,
  calibration: CalibrationResult | null,
  command: string,
  city: { buildings: number; seed: string },
  seconds: number,
): string {
  const grades = ['A', 'B', 'C', 'D', 'F'].map((g) => `| ${g} | ${report.grade_distribution[g] ?? 0} | ${pct(report.grade_distribution[g] ?? 0, report.buildings)} |`);
  return `# Validation of ${SCORER_ID}

Reproduce with \`${command}\` (about ${Math.ceil(seconds / 60)} minutes on the machine below). The
harness reads only the events and, for the synthetic city, its hidden \`truth.csv\`; the scorer never
reads the truth file. On real data the same backtest runs without the truth columns.

- Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}
- Date: ${new Date().toISOString().slice(0, 10)}
- Data: synthetic city of ${city.buildings} buildings (seed \`${city.seed}\`), snapshot as of ${report.as_of}, cut date ${report.cut}

${renderResults(report)}

## Grade distribution (as of ${report.as_of})

| Grade | Buildings | Share |
|---|---|---|
${grades.join('\n')}

## The score against simple rules

At ${backtest.cuts.length} cut dates, within unit bands (buildings of 3+ units, public housing left out), the score as of the cut and each baseline as of
the cut rank buildings for a serious outcome of the truth file in the next 12 months. Precision at k: k is the number of
buildings a city program can act on, ${ACTIONABLE_PER_100K_UNITS} per 100,000 units of the band; tied values share the places at the cut-off.
Goal: the score's AUC at least 0.05 above the best baseline in every band and cut, and its precision at k at least 1.3 times
the best baseline's. The small bands of a small city give few positives and a small k: read the precision with that in mind.
The ceiling columns rank by the hidden condition itself at the cut (truth.csv's yearly latent values, interpolated to the
cut date; the harness reads them, the scorer never does): the outcomes are random draws from that condition, so no scorer
of the records can expect to beat it, and where it is less than 0.05 above the best baseline the goal is out of reach.

Baselines: ${BASELINES.map((b) => `\`${b}\` (${BASELINE_DESCRIPTIONS[b]})`).join('; ')}.

${renderBaselines(backtest)}

## Confidence calibration

Every building at every cut date, by its confidence tier at the cut. Calibrated confidence means the high tier moves less at
the next refresh and keeps its grade more often at the next cut date than the medium and low tiers. \`insufficient\` is not a
lower degree of the same thing: it marks buildings with no confirmed record (mostly quiet small homes, whose A rarely moves
because nothing is recorded) and buildings the model cannot know (public housing, unreliable unit counts: held between B
and D); its stability says nothing about the condition of those buildings.

${renderCalibration(backtest)}
${renderCalibrationRun(calibration, command)}
## Reading these numbers

The synthetic city draws every record from a hidden latent condition through processes that share no code, threshold or rule
with the scorer (a test guards that the generator imports nothing from it): tenants report with a propensity that is lower in
poorer neighbourhoods, inspection intensity varies by zone, complaints follow the heat season, and size scales every rate. The
serious outcomes of the truth file are drawn from the hidden condition too, before any record, and then leave their records
(a vacate order, a burst of class C violations, an emergency repair, a program enrollment): the label is not a rule applied to
what the scorer reads. The "from events" backtest above uses those records and the published AEP/UCP rules, so it is the
optimistic one; the truth-file backtest and the baselines are the honest measures. These numbers say how well the model
recovers the hidden condition from the kinds of records the real city publishes; they are not a claim about accuracy on New York. The backtest on real data (loaded with \`npm run bhis -- ingest\`) is
the test that matters, and this harness runs it unchanged.
`;
}

/** Loads every file of a generated city into a migrated database (or only the files of `sources`), observed on `observedOn`. */
export async function loadCity(pool: Pool, dir: string, sources?: ReadonlySet<string>, observedOn: string = DEFAULT_AS_OF): Promise<void> {
  await syncSourceCatalog(pool);
  for (const { file, source } of recognisedFiles(dir).filter((f) => sources === undefined || sources.has(f.source))) {
    const runId = await createRun(pool, { source, trigger: 'cli', input: file });
    await loadSource(pool, getSource(source), { kind: 'csv', stream: createReadStream(file), totalBytes: (await stat(file)).size }, { runId, observedOn });
  }
}

const yearsBefore = (date: string, years: number) => new Date(Date.parse(`${date}T00:00:00Z`) - years * 365 * 86_400_000).toISOString().slice(0, 10);

/** The validation of a loaded city: the backtest at one year, and the baselines at three cut dates. */
export async function measureCity(
  pool: Pool,
  dir: string,
  options: { calibrate?: boolean } = {},
): Promise<{ report: ValidationReport; backtest: BaselineBacktest; calibration: CalibrationResult | null }> {
  const truth = readTruth(path.join(dir, 'truth.csv'));
  const report = await validateModel(pool, { asOf: DEFAULT_AS_OF, cut: yearsBefore(DEFAULT_AS_OF, 1), truth });
  const cuts = [1, 2, 3].map((years) => yearsBefore(DEFAULT_AS_OF, years));
  const backtest = await backtestAgainstBaselines(pool, { cuts, asOf: DEFAULT_AS_OF, truth });
  const calibration = options.calibrate ? calibrate(await calibrationSamples(pool, SCORER_ID, backtest.cuts.map((c) => c.cut), truth)) : null;
  return { report, backtest, calibration };
}

function renderCalibrationRun(result: CalibrationResult | null, command: string): string {
  if (result === null) return '';
  const keys = Object.keys(result.current) as (keyof CalibrationResult['current'])[];
  return `
## Calibration of the component weights

\`${command}\` fits the weights of the total's combination to the truth file's outcomes at the earliest cut date
(${result.fitted_on}, coordinate ascent on the mean within-band AUC) and checks them at the later cut dates. The model keeps its
published weights unless the fitted ones hold up on the later dates.

| Component | Weight in the model | Fitted weight |
|---|---|---|
${keys.map((k) => `| ${k} | ${result.current[k]} | ${result.fitted[k]} |`).join('\n')}

| Cut date | Mean within-band AUC, model weights | Mean within-band AUC, fitted weights |
|---|---|---|
${result.by_cut.map((c) => `| ${c.cut}${c.cut === result.fitted_on ? ' (fitted on)' : ''} | ${c.current} | ${c.fitted} |`).join('\n')}
`;
}

export function validateCommand(): Command {
  return new Command('validate')
    .description('Measure the model on a synthetic city with its hidden truth (Spearman, backtest AUC, anchors)')
    .option('--buildings <n>', 'size of the synthetic city', positiveInt, 4450)
    .option('--seed <seed>', 'seed of the city', 'validation')
    .option('--write <file>', 'write the report as markdown (e.g. docs/methodology-validation.md)')
    .option('--json', 'print the report as JSON')
    .option('--calibrate', 'also fit the component weights at the earliest cut date and check them at the later ones')
    .option('--database <name>', 'database to (re)create for the run', 'bhis_validation')
    .action(async (options: { buildings: number; seed: string; write?: string; json?: boolean; calibrate?: boolean; database: string }) => {
      if (!/^[a-z_][a-z0-9_]*$/.test(options.database)) throw new InvalidArgumentError('--database: lower-case letters, digits and _');
      const started = Date.now();
      const say = (line: string) => void (!options.json && process.stdout.write(`${line}\n`));
      const cfg = config();
      const url = new URL(cfg.DATABASE_URL);
      url.pathname = `/${options.database}`;
      const dir = path.resolve(cfg.DATA_DIR, `validation-city-${options.buildings}-${options.seed}`);
      if (!existsSync(path.join(dir, 'truth.csv'))) {
        say(`Generating a city of ${options.buildings} buildings in ${dir}...`);
        await generateCity({ buildings: options.buildings, seed: options.seed, outDir: dir });
      }
      const admin = new Pool({ connectionString: cfg.DATABASE_URL.replace(/\/[^/]*$/, '/postgres'), max: 1 });
      await admin.query(`DROP DATABASE IF EXISTS ${options.database} WITH (FORCE)`);
      await admin.end();
      await migrate(url.toString());
      const pool = new Pool({ connectionString: url.toString(), max: 8 });
      try {
        say('Loading the city...');
        await loadCity(pool, dir);
        say('Scoring at the cut dates and measuring...');
        const { report, backtest, calibration } = await measureCity(pool, dir, { calibrate: options.calibrate });
        const seconds = (Date.now() - started) / 1000;
        if (options.write) {
          const command = `npm run bhis -- validate --buildings ${options.buildings} --seed ${options.seed}${options.calibrate ? ' --calibrate' : ''} --write ${options.write}`;
          writeFileSync(options.write, render(report, backtest, calibration, command, { buildings: options.buildings, seed: options.seed }, seconds));
        }
        if (options.json) printJson({ ...report, baselines: backtest, calibration });
        else say(JSON.stringify({ ...report, baselines: backtest, calibration }, null, 2));
      } finally {
        await pool.end();
      }
    });
}
