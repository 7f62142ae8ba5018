import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { generateCity } from '@bhis/synth';
import { printJson, printRows } from '../output';
import { isInteractive, ProgressDisplay } from '../progress';

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 2_000_000) throw new InvalidArgumentError('must be a whole number from 1 to 2,000,000');
  return n;
}

function isoDay(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) throw new InvalidArgumentError('must be a date YYYY-MM-DD');
  return value;
}

interface SynthOptions {
  buildings: number;
  seed: string;
  out: string;
  asOf?: string;
  years?: number;
  historyStart?: string;
  headerDrift?: boolean;
  olderLayouts?: boolean;
  gzip?: boolean;
  changesSince?: string;
  json?: boolean;
}

export function synthCommand(): Command {
  return new Command('synth')
    .description('Write a synthetic city in the 25 real source formats (deterministic for a seed)')
    .requiredOption('--buildings <n>', 'number of buildings (445000 is the whole city)', positiveInt)
    .option('--seed <seed>', 'seed (same seed, same bytes)', '1')
    .requiredOption('--out <dir>', 'output directory')
    .option('--as-of <date>', 'date of the snapshot (a later date: the same city, later)', isoDay)
    .option('--years <n>', 'years of history', positiveInt)
    .option('--history-start <date>', 'first day of history (keep it fixed across snapshots)', isoDay)
    .option('--header-drift', 'write the drifted ECB header variant')
    .option('--older-layouts', 'write PLUTO, HPD violations, DOB safety violations, DOB NOW filings and rodent inspections in their oldest declared layouts')
    .option('--gzip', 'write the source files gzip-compressed (.csv.gz); ingest reads them as they are')
    .option('--changes-since <date>', 'write a refresh: only the event rows new since that date or changed since (same seed and history start as that snapshot)', isoDay)
    .option('--json', 'print the report as JSON')
    .action(async (options: SynthOptions) => {
      const display = new ProgressDisplay(isInteractive(options.json), 'synth');
      const report = await generateCity(
        {
          buildings: options.buildings,
          seed: options.seed,
          outDir: path.resolve(options.out),
          asOf: options.asOf,
          years: options.years,
          historyStart: options.historyStart,
          headerDrift: options.headerDrift,
          olderLayouts: options.olderLayouts,
          gzip: options.gzip,
          changesSince: options.changesSince,
        },
        (p) => display.update({ done: p.done, total: p.total, unit: 'lots', bytes: p.bytes }),
      );
      display.stop();
      if (options.json) return printJson(report);
      printRows(report.files.map((f) => ({ file: path.basename(f.file), source: f.source, rows: f.rows, mb: Math.round(f.bytes / 1e5) / 10 })), false);
      process.stdout.write(
        `\n${report.buildings} buildings, ${report.eventRows} event rows (median ${report.eventsPerBuilding.median}, max ${report.eventsPerBuilding.max} per building), ` +
          `${Math.round(report.totalBytes / 1e6)} MB in ${(report.elapsedMs / 1000).toFixed(1)} s -> ${report.outDir}\n`,
      );
    });
}
