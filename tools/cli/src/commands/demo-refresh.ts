import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pgPool } from '@bhis/db';
import { enqueueIngest, enqueueScoring } from '@bhis/runs';
import { SOURCES } from '@bhis/sources';
import { publishSyntheticRefresh, type SocrataMirror } from '@bhis/synth';
import { CliError, withDataSource } from '../context';
import { withQueue } from '../queues';
import { recognisedFiles, waitForRun } from './ingest';
import { waitForScoring } from './score';

/** What the demo's refresh brought, summed over its downloads. */
export interface DemoRefreshSummary {
  sources: number;
  skipped: number;
  read: number;
  inserted: number;
  updated: number;
  statusChanges: number;
}

/**
 * Puts the demo city's refresh (the rows new or changed on its refresh day, `refreshDir`) on the local
 * Socrata stand-in: each source the city updates incrementally gets its data sets' real view metadata,
 * stamped with the refresh day, and its changed rows as SODA JSON under the real field names. The sets
 * the city republishes whole (DOB complaints, HPD's programme lists, the building files) are not
 * served: they keep the first load's. Returns the keys published, in load order.
 */
export function publishDemoRefresh(mirror: SocrataMirror, refreshDir: string, refreshAsOf: string): string[] {
  const rowsUpdatedAt = Math.floor(Date.parse(`${refreshAsOf}T12:00:00Z`) / 1000);
  const files = recognisedFiles(refreshDir);
  // a source not published on Open Data (DOB vacate orders) has no download: it keeps the first load's
  const incremental = SOURCES.filter((source) => source.refresh === 'incremental' && source.parts.some((part) => part.datasetId) && files.some((f) => f.source === source.key));
  for (const source of incremental) {
    const own = files.filter((f) => f.source === source.key);
    publishSyntheticRefresh(mirror, source, Object.fromEntries(own.map(({ file }) => [path.basename(file), readFileSync(file, 'utf8')])), rowsUpdatedAt);
  }
  return incremental.map((source) => source.key);
}

/**
 * The daily refresh as the ingest worker makes it: each source downloaded from the stand-in the
 * worker is pointed at (SOCRATA_BASE_URL), one after the other, through the download path (view
 * metadata, then the SODA rows since the last load). A source whose set is unchanged since its last
 * download is skipped, as on Open Data.
 */
export async function downloadDemoRefresh(sources: readonly string[]): Promise<DemoRefreshSummary> {
  return withDataSource((ds) =>
    withQueue('ingest', async (queue) => {
      const pool = pgPool(ds);
      const summary: DemoRefreshSummary = { sources: sources.length, skipped: 0, read: 0, inserted: 0, updated: 0, statusChanges: 0 };
      for (const source of sources) {
        // queued again on a second demo of the same day: the worker finds the set unchanged and skips it
        const queued = await enqueueIngest(queue, pool, { source, input: { kind: 'download' }, trigger: 'cli', force: true });
        const run = await waitForRun(pool, queued.runId, source, false);
        if (run.status !== 'succeeded' && run.status !== 'skipped') throw new CliError(`The refresh of ${source} ${run.status}: ${run.error ?? ''}`);
        if (run.status === 'skipped') summary.skipped += 1;
        summary.read += run.counts.read ?? 0;
        summary.inserted += run.counts.events?.inserted ?? 0;
        summary.updated += run.counts.events?.updated ?? 0;
        summary.statusChanges += run.counts.events?.status_changes ?? 0;
      }
      return summary;
    }),
  );
}

/** An incremental scoring run: the buildings the refresh changed. Returns how many it scored. */
export async function rescoreDemoRefresh(): Promise<number> {
  return withDataSource((ds) =>
    withQueue('scoring', async (queue) => {
      const pool = pgPool(ds);
      const queued = await enqueueScoring(queue, pool, { kind: 'incremental', trigger: 'cli', force: true });
      const run = await waitForScoring(pool, queued.runId, false);
      if (run.status === 'failed') throw new CliError(`Rescoring after the refresh failed: ${run.error}`);
      return (run.counts.buildings as number | undefined) ?? 0;
    }),
  );
}
