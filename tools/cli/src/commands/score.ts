import { Command, InvalidArgumentError } from 'commander';
import type { Pool } from 'pg';
import { pgPool } from '@bhis/db';
import { isValidBbl } from '@bhis/domain';
import { CliError, withDataSource } from '../context';
import { printJson, printRows } from '../output';
import { isInteractive, ProgressDisplay } from '../progress';
import { warnWithoutWorkers, withQueue } from '../queues';
import { enqueueBackfill, enqueueScoring, getScoringRun, ScoringRunRow } from '@bhis/runs';

function isoDay(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) throw new InvalidArgumentError('must be a date YYYY-MM-DD');
  return value;
}

function bblList(value: string, previous: string[] = []): string[] {
  const bbls = value.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = bbls.filter((b) => !isValidBbl(b));
  if (bad.length) throw new InvalidArgumentError(`not a valid BBL: ${bad.join(', ')}`);
  return [...previous, ...bbls];
}

function months(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 120) throw new InvalidArgumentError('must be 1-120');
  return n;
}

export async function waitForScoring(pool: Pool, runId: string, interactive: boolean): Promise<ScoringRunRow> {
  const display = new ProgressDisplay(interactive, 'scoring');
  try {
    for (;;) {
      const run = await getScoringRun(pool, runId);
      if (!run) throw new CliError(`Scoring run ${runId} disappeared`);
      const progress = run.counts.progress as { scored: number; total: number } | undefined;
      if (progress) display.update({ done: progress.scored, total: progress.total, unit: 'buildings' });
      if (run.status === 'succeeded' || run.status === 'failed') return run;
      await new Promise((r) => setTimeout(r, 400));
    }
  } finally {
    display.stop();
  }
}

export function scoreCommand(): Command {
  return new Command('score')
    .description('Queue a scoring run for the scoring worker (incremental by default: the buildings whose data changed)')
    .option('--full', 'rescore every building')
    .option('--bbl <bbls>', 'rescore these BBLs (comma-separated, repeatable)', bblList)
    .option('--as-of <date>', 'score as of this date (default today)', isoDay)
    .option('--backfill-months <n>', 'write monthly history points for the last N months (history only)', months)
    .option('--wait', 'wait for the run to finish')
    .option('--force', 'queue again even if the same run was done today')
    .option('--json', 'print JSON')
    .action(async (options: { full?: boolean; bbl?: string[]; asOf?: string; backfillMonths?: number; wait?: boolean; force?: boolean; json?: boolean }) => {
      await withDataSource((ds) =>
        withQueue('scoring', async (queue) => {
          const pool = pgPool(ds);
          await warnWithoutWorkers(queue, 'npm run start:scoring');
          const queued = options.backfillMonths
            ? await enqueueBackfill(queue, pool, { months: options.backfillMonths, asOf: options.asOf, trigger: 'cli' })
            : await enqueueScoring(queue, pool, {
                kind: options.full ? 'full' : 'incremental',
                asOf: options.asOf,
                bbls: options.bbl,
                trigger: 'cli',
                force: options.force,
              });
          if (!options.wait) {
            if (options.json) return printJson({ run_id: queued.runId, job_id: queued.jobId });
            process.stdout.write(`Queued scoring run ${queued.runId} (job ${queued.jobId}).\n`);
            return;
          }
          const run = await waitForScoring(pool, queued.runId, isInteractive(options.json));
          const summary = {
            run_id: run.id,
            kind: run.kind,
            as_of: run.as_of,
            status: run.status,
            buildings: (run.counts.buildings as number | undefined) ?? null,
            crossings: (run.counts.crossings as number | undefined) ?? null,
            seconds: run.duration_ms !== null ? Math.round(run.duration_ms / 100) / 10 : null,
            error: run.error,
          };
          if (options.json) printJson({ ...summary, counts: run.counts });
          else printRows([summary], false);
          if (run.status === 'failed') process.exitCode = 1;
        }),
      );
    });
}
