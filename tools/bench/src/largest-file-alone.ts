import { mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getSource, sourceForFile } from '@bhis/sources';
import { NodeProcess, runCliJsonTimed } from '@bhis/testing';
import { CITY_AS_OF, IngestSummaryRow } from './data-setup';
import { dropDatabase, recreateDatabase } from './database';
import type { LargestFileAlone } from './results';

/**
 * The largest file of the city loaded alone, as its raw COPY is measured: into a fresh database that
 * holds only what its load needs (the building files, loaded first as `bhis ingest --dir` loads
 * them), through the real ingest worker, with nothing else loading beside it. In the city's ingest the
 * same file shares the two cores with the other loads. Its seconds run from the start of its run to
 * the commit of its merge (ingest_runs).
 */
export async function measureLargestFileAlone(args: {
  adminUrl: string;
  database: string;
  cityDir: string;
  largestFile: string;
  env: Record<string, string>;
  csvCopyRowsPerSecond: number | null;
  startWorker: (env: Record<string, string>) => NodeProcess;
}): Promise<LargestFileAlone> {
  const url = await recreateDatabase(args.adminUrl, args.database);
  const env = { ...args.env, DATABASE_URL: url, REDIS_PREFIX: `${args.env.REDIS_PREFIX}_alone` };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bhis-bench-alone-'));
  const worker = args.startWorker(env);
  try {
    for (const name of readdirSync(args.cityDir)) {
      const source = sourceForFile(name)?.source;
      if (source && (name === args.largestFile || getSource(source.key).produces.facts.length > 0)) symlinkSync(path.join(args.cityDir, name), path.join(dir, name));
    }
    await worker.waitFor('ingest worker started');
    const cliArgs = ['ingest', '--dir', dir, '--observed-on', CITY_AS_OF, '--json'];
    const { value } = await runCliJsonTimed<IngestSummaryRow[]>(cliArgs, env, [worker]);
    const row = value.find((r) => path.basename(r.file) === args.largestFile);
    if (!row || row.status !== 'succeeded' || !row.read || !row.seconds) throw new Error(`the load of ${args.largestFile} alone did not succeed: ${JSON.stringify(row)}`);
    const rowsPerSecond = Math.round(row.read / row.seconds);
    return {
      command: `bhis ingest --dir <the building files and ${args.largestFile}> --observed-on ${CITY_AS_OF} --json`,
      file: args.largestFile,
      rows: row.read,
      seconds: row.seconds,
      rowsPerSecond,
      csvCopyRatio: args.csvCopyRowsPerSecond ? Math.round((rowsPerSecond / args.csvCopyRowsPerSecond) * 1000) / 1000 : null,
    };
  } finally {
    await worker.stop();
    rmSync(dir, { recursive: true, force: true });
    await dropDatabase(args.adminUrl, args.database);
  }
}
