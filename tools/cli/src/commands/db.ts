import { Command } from 'commander';
import { migrate, pgPool, rebuildEventIndexes } from '@bhis/db';
import { config, withDataSource } from '../context';
import { reportRebuild } from './ingest';
import { printJson } from '../output';

export function dbCommand(): Command {
  const db = new Command('db').description('Database administration');
  db.command('migrate')
    .description('Create the database if needed and apply pending migrations')
    .option('--json', 'print the result as JSON')
    .action(async (options: { json?: boolean }) => {
      const report = await migrate(config().DATABASE_URL);
      if (options.json) return printJson(report);
      if (report.createdDatabase) process.stdout.write('Created the database.\n');
      process.stdout.write(
        report.applied.length
          ? `Applied ${report.applied.length} migration(s):\n${report.applied.map((m) => `  ${m}`).join('\n')}\n`
          : 'The database is up to date.\n',
      );
    });
  db.command('reindex-events')
    .description('Build the indexes of events a first load deferred, then rebuild the others without blocking reads or writes (after a large load)')
    .option('--cluster', "rewrite each partition of events in building order (CLUSTER), as a first load does: reads of a partition's events wait while it is rewritten")
    .action(async (options: { cluster?: boolean }) => {
      await withDataSource(async (ds) => reportRebuild(await rebuildEventIndexes(pgPool(ds), { cluster: options.cluster })));
    });
  return db;
}
