import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { SOURCES, sourceForFile } from '@bhis/sources';
import { publishSyntheticRefresh, type SocrataMirror } from '@bhis/synth';
import { runCliJsonTimed, type NodeProcess } from '@bhis/testing';
import { ensureCity, score, type CityReport, type ScoringResult } from './data-setup';
import { REFRESH_AS_OF } from './refresh';

/**
 * The as-of date of the refresh downloaded from the local Socrata stand-in: the 28 days of the city's
 * changes that follow the file refresh (docs/benchmarks.md), so that it brings rows the database has
 * not seen. Both dates are in the year of the city's: the three runs of the generator share its past.
 */
export const SODA_REFRESH_AS_OF = '2026-12-27';

/** One downloaded source of the refresh (`bhis ingest --source KEY --download --json`). */
interface DownloadSummary {
  source: string;
  status: string;
  seconds: number | null;
  error: string | null;
  counts: { read?: number; events?: { inserted: number; updated: number; status_changes: number } };
}

export interface SodaRefreshResult {
  /** how the changes were written (the sets the city republishes whole: by the second command) */
  generationCommands: string[];
  asOf: string;
  since: string;
  /** the sources downloaded, one run each, in load order */
  sources: number;
  /** rows served as SODA JSON (sets replaced whole: as their CSV export) and read by the worker */
  rows: number;
  /** of which rows of the sets the city republishes whole, read whole from their CSV export */
  wholeSetRows: number;
  shareOfCity: number;
  /** seconds to write the rows into the stand-in (SODA JSON named by each data set's view metadata); not counted below */
  publishSeconds: number;
  ingestCommand: string;
  /** every download, one after the other as the daily refresh runs them, wall time */
  ingestSeconds: number;
  /** the download runs' own seconds, summed: the rest of the wall time is the CLI's start and its wait for each run */
  runSeconds: number;
  rowsPerSecond: number;
  inserted: number;
  updated: number;
  statusChanges: number;
  scoring: ScoringResult;
  /** downloads plus rescoring, wall time */
  totalSeconds: number;
}

/** Where the changes and the whole city as of SODA_REFRESH_AS_OF are written, beside the city. */
function sodaRefreshDirs(cityDir: string): { changes: string; whole: string } {
  return { changes: `${cityDir}-soda-refresh-${SODA_REFRESH_AS_OF}`, whole: `${cityDir}-${SODA_REFRESH_AS_OF}` };
}

/** Generates the changes from the file refresh's date on, and the whole city of that day (or finds them generated before). */
export async function ensureSodaRefresh(cityDir: string, buildings: number, gzip: boolean): Promise<{ changes: Awaited<ReturnType<typeof ensureCity>>; whole: Awaited<ReturnType<typeof ensureCity>> }> {
  const dirs = sodaRefreshDirs(cityDir);
  const changes = await ensureCity(dirs.changes, buildings, gzip, { asOf: SODA_REFRESH_AS_OF, since: REFRESH_AS_OF });
  const whole = await ensureCity(dirs.whole, buildings, gzip, { asOf: SODA_REFRESH_AS_OF });
  return { changes, whole };
}

function readCsv(dir: string, file: string): string {
  const bytes = readFileSync(path.join(dir, file));
  return (file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
}

/**
 * Puts the refresh on the mirror: each source with changed rows gets its data sets' real view
 * metadata and those rows as SODA JSON (a set the city republishes whole: its whole file as of the
 * refresh, as its CSV export). Returns the sources published, in load order, with their rows.
 */
function publishRefresh(mirror: SocrataMirror, changes: CityReport, whole: CityReport, dirs: { changes: string; whole: string }): { key: string; rows: number; wholeSet: boolean }[] {
  const rowsUpdatedAt = Math.floor(Date.parse(`${SODA_REFRESH_AS_OF}T12:00:00Z`) / 1000);
  const changed = new Set(changes.files.flatMap((f) => (sourceForFile(f.file) ? [sourceForFile(f.file)?.source.key] : [])));
  // a source not published on Open Data (DOB vacate orders) has no download: it is left out, as the daily refresh skips it
  const published = SOURCES.filter((source) => changed.has(source.key) && source.parts.some((part) => part.datasetId));
  return published.map((source) => {
    const wholeSet = source.refresh === 'whole_replace';
    const [report, dir] = wholeSet ? [whole, dirs.whole] : [changes, dirs.changes];
    const files = report.files.filter((f) => sourceForFile(f.file)?.source.key === source.key);
    const csvByFile = Object.fromEntries(files.map((f) => [f.file.replace(/\.gz$/, ''), readCsv(dir, f.file)]));
    return { key: source.key, rows: publishSyntheticRefresh(mirror, source, csvByFile, rowsUpdatedAt), wholeSet };
  });
}

/**
 * The refresh an operator's daily refresh makes, through the download path: the city's changes served
 * by a local Socrata stand-in (real view metadata, SODA JSON rows under the real field names), each
 * source downloaded by the real ingest worker (which must be started with the mirror's environment),
 * one after the other, then an incremental scoring run of the buildings they changed.
 */
export async function refreshCityBySoda(
  city: { dir: string; buildings: number; gzip: boolean; rows: number },
  env: Record<string, string>,
  workers: { ingest: NodeProcess; scoring: NodeProcess },
  mirror: SocrataMirror,
): Promise<SodaRefreshResult> {
  const dirs = sodaRefreshDirs(city.dir);
  const { changes, whole } = await ensureSodaRefresh(city.dir, city.buildings, city.gzip);
  const publishStarted = Date.now();
  const published = publishRefresh(mirror, changes.report, whole.report, dirs);
  const publishSeconds = (Date.now() - publishStarted) / 1000;
  let ingestMs = 0;
  let runSeconds = 0;
  const events = { inserted: 0, updated: 0, statusChanges: 0 };
  let rows = 0;
  for (const { key } of published) {
    const { value, elapsedMs } = await runCliJsonTimed<DownloadSummary>(['ingest', '--source', key, '--download', '--observed-on', SODA_REFRESH_AS_OF, '--wait', '--json'], env, [workers.ingest]);
    if (value.status !== 'succeeded') throw new Error(`download of ${key} ${value.status}: ${value.error ?? ''}`);
    ingestMs += elapsedMs;
    runSeconds += value.seconds ?? 0;
    rows += value.counts.read ?? 0;
    events.inserted += value.counts.events?.inserted ?? 0;
    events.updated += value.counts.events?.updated ?? 0;
    events.statusChanges += value.counts.events?.status_changes ?? 0;
  }
  const scoring = await score([], env, workers.scoring, SODA_REFRESH_AS_OF);
  const ingestSeconds = Math.round(ingestMs / 100) / 10;
  return {
    generationCommands: [changes.command, whole.command],
    asOf: SODA_REFRESH_AS_OF,
    since: REFRESH_AS_OF,
    sources: published.length,
    rows,
    wholeSetRows: published.filter((p) => p.wholeSet).reduce((sum, p) => sum + p.rows, 0),
    shareOfCity: city.rows > 0 ? rows / city.rows : 0,
    publishSeconds: Math.round(publishSeconds * 10) / 10,
    ingestCommand: `bhis ingest --source KEY --download --observed-on ${SODA_REFRESH_AS_OF} --wait --json, for each of the ${published.length} sources in turn`,
    ingestSeconds,
    runSeconds: Math.round(runSeconds * 10) / 10,
    rowsPerSecond: ingestSeconds > 0 ? Math.round(rows / ingestSeconds) : 0,
    inserted: events.inserted,
    updated: events.updated,
    statusChanges: events.statusChanges,
    scoring,
    totalSeconds: Math.round((ingestSeconds + scoring.seconds) * 10) / 10,
  };
}

/** Where the local Socrata stand-in keeps what it serves, beside the city. */
export function mirrorDir(cityDir: string): string {
  return `${cityDir}-soda-mirror`;
}
