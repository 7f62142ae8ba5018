import { Command, InvalidArgumentError } from 'commander';
import { pgPool } from '@bhis/db';
import { getRun, rejectedRows } from '@bhis/runs';
import { CliError, withDataSource } from '../context';
import { printRows } from '../output';

function limitOf(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 100_000) throw new InvalidArgumentError('must be a whole number from 1 to 100000');
  return n;
}

/** `bhis rejected --run ID`: the rows a run quarantined, with the reason and the raw line. */
export function rejectedCommand(): Command {
  return new Command('rejected')
    .description("List the rows an ingest run quarantined (line number, reason, raw text), in file order")
    .requiredOption('--run <id>', 'the ingest run (its id, as `bhis ingest` and `bhis ingest --status` print it)')
    .option('--reason <reason>', 'only the rows of this reason (e.g. missing_record_key)')
    .option('--limit <n>', 'at most this many rows (default 100)', limitOf, 100)
    .option('--json', 'print JSON')
    .action(async (options: { run: string; reason?: string; limit: number; json?: boolean }) => {
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(options.run)) throw new CliError(`--run takes a run id (a UUID), not "${options.run}"`);
      await withDataSource(async (ds) => {
        const pool = pgPool(ds);
        const run = await getRun(pool, options.run);
        if (!run) throw new CliError(`No ingest run ${options.run}`);
        const rows = await rejectedRows(pool, options.run, { limit: options.limit, reason: options.reason });
        printRows(
          rows.map((r) => ({ line: r.line_number, reason: r.reason, raw: options.json ? r.raw : r.raw.length > 120 ? `${r.raw.slice(0, 119)}…` : r.raw })),
          Boolean(options.json),
        );
        const total = run.counts.quarantined ?? rows.length;
        if (!options.json && total > rows.length) process.stderr.write(`${rows.length} of the run's ${total} quarantined rows; --limit shows more.\n`);
      });
    });
}
