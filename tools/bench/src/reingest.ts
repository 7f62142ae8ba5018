import { createReadStream, createWriteStream, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { parse } from 'csv-parse';
import { sourceForFile } from '@bhis/sources';
import { NodeProcess, runCliJsonTimed } from '@bhis/testing';
import { CITY_AS_OF } from './data-setup';
import { CsvCopyCeiling, measureCsvCopyCeiling } from './database';

/** The source whose unchanged file is loaded again: the largest of the city's event files a refresh re-reads whole. */
export const REINGEST_SOURCE = 'hpd_violations';

export interface Reingest {
  command: string;
  source: string;
  file: string;
  rows: number;
  /** from the start of its run to the commit of its merge (ingest_runs) */
  seconds: number;
  rowsPerSecond: number;
  inserted: number;
  updated: number;
  unchanged: number;
  /** lines skipped unparsed, their hash stored already (libs/ingestion/src/known-lines.ts) */
  unchangedLines?: number;
  vanished: number;
  /** the raw COPY of the same file's well-formed rows, right after, in the same run */
  ceiling: CsvCopyCeiling;
  /** rowsPerSecond / ceiling.rowsPerSecond */
  ratio: number;
}

interface IngestRunJson {
  status: string;
  read: number | null;
  seconds: number | null;
  error: string | null;
  counts: { vanished?: number; unchanged_lines?: number; events?: { inserted: number; updated: number; unchanged: number } };
}

/**
 * The file as COPY can read it: the rows with as many fields as the header (the synthetic city
 * writes a few malformed rows, which the ingest quarantines and COPY would fail on), written out
 * before the COPY is timed.
 */
async function wellFormedCopy(file: string, dir: string): Promise<string> {
  const out = path.join(dir, `${path.basename(file).replace(/\.gz$/, '')}`);
  let columns = -1;
  const rows = parse({ raw: true, relax_column_count: true, relax_quotes: true, bom: true });
  const keep = async function* (records: AsyncIterable<{ record: string[]; raw: string }>) {
    for await (const { record, raw } of records) {
      if (columns === -1) columns = record.length;
      if (record.length === columns) yield raw.endsWith('\n') ? raw : `${raw}\n`;
    }
  };
  await pipeline(file.endsWith('.gz') ? createReadStream(file).pipe(createGunzip()) : createReadStream(file), rows, keep, createWriteStream(out));
  return out;
}

/**
 * A refresh that re-reads an unchanged file whole (as the refresh of a source the city replaces
 * daily does): the city's file of REINGEST_SOURCE loaded again after the city load, through the ingest
 * worker, then the raw COPY of the same file, so both are measured on the same machine in the same
 * minutes. Loaded without `--complete`: a complete file must have the source's `minimumRows` (a
 * whole city's), which a partial city's file has not; the search for vanished records it leaves out
 * is one anti-join of the merged set.
 */
export async function measureReingest(args: { url: string; cityDir: string; env: Record<string, string>; worker: NodeProcess }): Promise<Reingest | null> {
  const name = readdirSync(args.cityDir).find((f) => sourceForFile(f)?.source.key === REINGEST_SOURCE);
  if (!name) return null;
  const file = path.join(args.cityDir, name);
  const cliArgs = ['ingest', '--source', REINGEST_SOURCE, '--file', file, '--force', '--wait', '--observed-on', CITY_AS_OF, '--json'];
  const { value: run } = await runCliJsonTimed<IngestRunJson>(cliArgs, args.env, [args.worker]);
  if (run.status !== 'succeeded' || !run.read || !run.seconds) throw new Error(`the re-ingest of ${name} did not succeed: ${JSON.stringify(run)}`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bhis-bench-reingest-'));
  try {
    const ceiling = await measureCsvCopyCeiling(args.url, await wellFormedCopy(file, dir));
    const rowsPerSecond = Math.round(run.read / run.seconds);
    return {
      command: `bhis ${cliArgs.join(' ').replace(file, `<city>/${name}`)}`,
      source: REINGEST_SOURCE,
      file: name,
      rows: run.read,
      seconds: run.seconds,
      rowsPerSecond,
      inserted: run.counts.events?.inserted ?? 0,
      updated: run.counts.events?.updated ?? 0,
      unchanged: run.counts.events?.unchanged ?? 0,
      unchangedLines: run.counts.unchanged_lines ?? 0,
      vanished: run.counts.vanished ?? 0,
      ceiling: { ...ceiling, file: name },
      ratio: Math.round((rowsPerSecond / ceiling.rowsPerSecond) * 1000) / 1000,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
