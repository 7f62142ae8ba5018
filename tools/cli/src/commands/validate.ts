import { createReadStream, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { parse } from 'csv-parse/sync';
import { Pool } from 'pg';
import { migrate } from '@bhis/db';
import { SCORER_ID } from '@bhis/domain';
import { createRun, loadSource, syncSourceCatalog } from '@bhis/ingestion';
import { TruthRow, validateModel, ValidationReport } from '@bhis/score-runner';
import { getSource } from '@bhis/sources';
import { DEFAULT_AS_OF, generateCity } from '@bhis/synth';
import { config } from '../context';
import { printJson } from '../output';
import { recognisedFiles } from './ingest';

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 100 || n > 445_000) throw new InvalidArgumentError('must be 100-445000');
  return n;
}

function readTruth(file: string): Map<string, TruthRow> {
  const rows = parse(readFileSync(file), { columns: true }) as Record<string, string>[];
  return new Map(rows.map((r) => [r.bbl, { bbl: r.bbl, latentAsOf: Number(r.latent_as_of), seriousAfterCut: r.serious_12m_after_cut === '1' }]));
}

function render(report: ValidationReport, command: string, city: { buildings: number; seed: string }, seconds: number): string {
  const pct = (n: number, of: number) => (of ? `${((100 * n) / of).toFixed(1)}%` : 'n/a');
  const grades = ['A', 'B', 'C', 'D', 'F'].map((g) => `| ${g} | ${report.grade_distribution[g] ?? 0} | ${pct(report.grade_distribution[g] ?? 0, report.buildings)} |`);
  return `# Validation of ${SCORER_ID}

Reproduce with \`${command}\` (about ${Math.ceil(seconds / 60)} minutes on the machine below). The
harness reads only the events and, for the synthetic city, its hidden \`truth.csv\`; the scorer never
reads the truth file. On real data the same backtest runs without the truth columns.

- Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}
- Date: ${new Date().toISOString().slice(0, 10)}
- Data: synthetic city of ${city.buildings} buildings (seed \`${city.seed}\`), snapshot as of ${report.as_of}, cut date ${report.cut}

## Results

| Measure | Value |
|---|---|
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

## Grade distribution (as of ${report.as_of})

| Grade | Buildings | Share |
|---|---|---|
${grades.join('\n')}

## Reading these numbers

The synthetic city draws every event from a hidden latent condition, so these numbers say that the
model recovers that condition from the same kinds of records the real city publishes; they are not a
claim about accuracy on New York. The backtest on real data (loaded with \`npm run bhis -- ingest\`) is
the test that matters, and this harness runs it unchanged.
`;
}

export function validateCommand(): Command {
  return new Command('validate')
    .description('Measure the model on a synthetic city with its hidden truth (Spearman, backtest AUC, anchors)')
    .option('--buildings <n>', 'size of the synthetic city', positiveInt, 4450)
    .option('--seed <seed>', 'seed of the city', 'validation')
    .option('--write <file>', 'write the report as markdown (e.g. docs/methodology-validation.md)')
    .option('--json', 'print the report as JSON')
    .action(async (options: { buildings: number; seed: string; write?: string; json?: boolean }) => {
      const started = Date.now();
      const say = (line: string) => void (!options.json && process.stdout.write(`${line}\n`));
      const cfg = config();
      const url = new URL(cfg.DATABASE_URL);
      url.pathname = '/bhis_validation';
      const dir = path.resolve(cfg.DATA_DIR, `validation-city-${options.buildings}-${options.seed}`);
      if (!existsSync(path.join(dir, 'truth.csv'))) {
        say(`Generating a city of ${options.buildings} buildings in ${dir}...`);
        await generateCity({ buildings: options.buildings, seed: options.seed, outDir: dir });
      }
      const admin = new Pool({ connectionString: cfg.DATABASE_URL.replace(/\/[^/]*$/, '/postgres'), max: 1 });
      await admin.query('DROP DATABASE IF EXISTS bhis_validation WITH (FORCE)');
      await admin.end();
      await migrate(url.toString());
      const pool = new Pool({ connectionString: url.toString(), max: 8 });
      try {
        await syncSourceCatalog(pool);
        say('Loading the city...');
        for (const { file, source } of recognisedFiles(dir)) {
          const runId = await createRun(pool, { source, trigger: 'cli', input: file });
          await loadSource(pool, getSource(source), { kind: 'csv', stream: createReadStream(file), totalBytes: (await stat(file)).size }, { runId, observedOn: DEFAULT_AS_OF });
        }
        const cut = new Date(Date.parse(`${DEFAULT_AS_OF}T00:00:00Z`) - 365 * 86_400_000).toISOString().slice(0, 10);
        say(`Scoring as of ${cut} and ${DEFAULT_AS_OF}...`);
        const report = await validateModel(pool, { asOf: DEFAULT_AS_OF, cut, truth: readTruth(path.join(dir, 'truth.csv')) });
        const seconds = (Date.now() - started) / 1000;
        if (options.write) {
          const command = `npm run bhis -- validate --buildings ${options.buildings} --seed ${options.seed} --write ${options.write}`;
          writeFileSync(options.write, render(report, command, { buildings: options.buildings, seed: options.seed }, seconds));
        }
        if (options.json) printJson(report);
        else say(JSON.stringify(report, null, 2));
      } finally {
        await pool.end();
      }
    });
}
