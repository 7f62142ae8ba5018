import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Pool } from 'pg';
import { pgPool } from '@bhis/db';
import { DEFAULT_YEARS, generateCity, type SocrataMirror } from '@bhis/synth';
import { CliError, config, withDataSource } from '../context';
import { withQueue } from '../queues';
import { recognisedFiles, waitForRun } from './ingest';
import { waitForScoring } from './score';
import { downloadDemoRefresh, publishDemoRefresh, rescoreDemoRefresh } from './demo-refresh';
import { enqueueBackfill, enqueueIngest, enqueueScoring } from '@bhis/runs';

/** One step of the demo; later steps (synthetic city, ingest, scoring) are appended as they exist. */
export interface DemoStep {
  title: string;
  run(): Promise<void>;
}

/** The demo city: a few thousand buildings, so that it is generated, loaded and scored in about a minute. */
export const DEMO_CITY = { buildings: 2000, seed: 'demo' } as const;
const HISTORY_MONTHS = 6;

const say = (line: string) => process.stdout.write(`   ${line}\n`);

function cityDir(): string {
  return path.resolve(config().DATA_DIR, 'demo-city');
}

/** The demo city generated (null when reused), with the refresh that follows it. */
export interface DemoCity {
  asOf: string;
  /** the day of the refresh: the rows new or changed that day are in `refreshDir` */
  refreshAsOf: string;
  refreshDir: string;
  report: Awaited<ReturnType<typeof generateCity>> | null;
}

function dayBefore(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}

/**
 * The demo city, dated the day before it is generated, and its refresh: the rows new or changed on
 * the day it is generated (`refresh/` inside the city's folder, which the load of the city does not
 * read). Once refreshed, its newest records are of that day, as the city's are on the day they are
 * downloaded, so a fresh demo is not late by the cadences of its sources (a city of a fixed older
 * date would be, by the record allowances of libs/scoring/src/freshness.ts). A city generated before
 * (same size and seed) is reused as it is, dated the day it was made. Both share their window of
 * history, so that the refresh continues the city even across a new year.
 */
export async function generateDemoCity(
  dir: string,
  today: string = new Date().toISOString().slice(0, 10),
  buildings: number = DEMO_CITY.buildings,
): Promise<DemoCity> {
  const marker = path.join(dir, '.complete');
  const refreshDir = path.join(dir, 'refresh');
  const made = existsSync(marker) ? (JSON.parse(readFileSync(marker, 'utf8')) as { buildings?: number; seed?: string; asOf?: string; refreshAsOf?: string }) : null;
  if (made?.buildings === buildings && made.seed === DEMO_CITY.seed && made.asOf && made.refreshAsOf) return { asOf: made.asOf, refreshAsOf: made.refreshAsOf, refreshDir, report: null };
  const asOf = dayBefore(today);
  const historyStart = `${Number(asOf.slice(0, 4)) - DEFAULT_YEARS}-01-01`;
  const report = await generateCity({ buildings, seed: DEMO_CITY.seed, outDir: dir, asOf, historyStart });
  await generateCity({ buildings, seed: DEMO_CITY.seed, outDir: refreshDir, asOf: today, historyStart, changesSince: asOf });
  writeFileSync(marker, JSON.stringify({ ...DEMO_CITY, buildings, asOf, refreshAsOf: today }));
  return { asOf, refreshAsOf: today, refreshDir, report };
}

async function generate(buildings: number): Promise<DemoCity> {
  const dir = cityDir();
  const started = Date.now();
  const city = await generateDemoCity(dir, undefined, buildings);
  if (!city.report) {
    say(`already generated in ${dir} (as of ${city.asOf}, its refresh of ${city.refreshAsOf})`);
    return city;
  }
  const { report } = city;
  say(`${report.buildings} buildings, ${report.eventRows.toLocaleString('en-US')} event rows in ${report.files.length} files, as of ${city.asOf}, and the changes of ${city.refreshAsOf} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return city;
}

async function ingest(): Promise<void> {
  const files = recognisedFiles(cityDir());
  await withDataSource((ds) =>
    withQueue('ingest', async (queue) => {
      const pool = pgPool(ds);
      let rows = 0;
      let quarantined = 0;
      const started = Date.now();
      for (const { file, source } of files) {
        const queued = await enqueueIngest(queue, pool, { source, input: { kind: 'file', path: file }, trigger: 'cli' });
        const run = await waitForRun(pool, queued.runId, source, false);
        if (run.status === 'failed') throw new CliError(`Ingest of ${path.basename(file)} failed: ${run.error}`);
        rows += run.counts.read ?? 0;
        quarantined += run.counts.quarantined ?? 0;
      }
      say(`${files.length} files, ${rows.toLocaleString('en-US')} rows read, ${quarantined} quarantined (see: npm run bhis -- ingest --status) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }),
  );
}

async function score(): Promise<void> {
  await withDataSource((ds) =>
    withQueue('scoring', async (queue) => {
      const pool = pgPool(ds);
      const started = Date.now();
      const current = await enqueueScoring(queue, pool, { kind: 'full', trigger: 'cli', force: true });
      const run = await waitForScoring(pool, current.runId, false);
      if (run.status === 'failed') throw new CliError(`Scoring failed: ${run.error}`);
      const history = await enqueueBackfill(queue, pool, { months: HISTORY_MONTHS, trigger: 'cli' });
      const backfill = await waitForScoring(pool, history.runId, false);
      if (backfill.status === 'failed') throw new CliError(`History backfill failed: ${backfill.error}`);
      say(`${run.counts.buildings} buildings scored, ${HISTORY_MONTHS} months of history in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }),
  );
}

/** A few buildings worth looking at first. */
export async function interestingBuildings(pool: Pool): Promise<{ why: string; bbl: string; address: string; grade: string; total_score: number }[]> {
  const pick = async (why: string, where: string, order: string) => {
    const { rows } = await pool.query<{ bbl: string; address: string; grade: string; total_score: number }>(
      `SELECT s.bbl, b.address, s.grade, s.total_score FROM building_scores s JOIN buildings b USING (bbl)
        WHERE ${where} ORDER BY ${order} LIMIT 1`,
    );
    return rows.map((r) => ({ why, ...r }));
  };
  return [
    ...(await pick('distressed (F)', `s.grade = 'F'`, 's.total_score DESC, b.residential_units DESC')),
    ...(await pick('excellent (A), a large building', `s.grade = 'A'`, 'b.residential_units DESC')),
    ...(await pick('active FDNY vacate', `'fdny-vacate-active' = ANY(s.flags)`, 's.total_score DESC')),
    ...(await pick('in the Alternative Enforcement Program', `'aep-active' = ANY(s.flags)`, 's.total_score DESC')),
    ...(await pick('public housing (no HPD records: lowest confidence, graded B-D)', `'public-housing' = ANY(s.flags)`, 'b.residential_units DESC')),
  ];
}

/** The refresh of the city's next day, served by the stand-in and downloaded by the ingest worker, then rescored. */
async function refresh(city: DemoCity, mirror: SocrataMirror): Promise<void> {
  const started = Date.now();
  const sources = publishDemoRefresh(mirror, city.refreshDir, city.refreshAsOf);
  const got = await downloadDemoRefresh(sources);
  const rescored = await rescoreDemoRefresh();
  const n = (value: number) => value.toLocaleString('en-US');
  say(`${got.sources} sources downloaded from ${mirror.url}${got.skipped ? ` (${got.skipped} unchanged since their last download: skipped)` : ''}: ` +
    `${n(got.read)} rows read, ${n(got.inserted)} records new, ${n(got.updated)} changed, ${n(got.statusChanges)} status changes`);
  say(`${n(rescored)} buildings rescored; refresh and rescoring in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** What the steps share: the Socrata stand-in the ingest worker downloads from, and the size of the city. */
export interface DemoContext {
  mirror: SocrataMirror;
  buildings: number;
}

export function demoSteps({ mirror, buildings }: DemoContext): DemoStep[] {
  let city: DemoCity | undefined;
  return [
    { title: `Generating a synthetic city (${buildings} buildings, 15 years, the 25 real file formats) and its next day...`, run: async () => void (city = await generate(buildings)) },
    { title: 'Ingesting every file through the ingest worker...', run: ingest },
    { title: `Scoring every building, and ${HISTORY_MONTHS} months of monthly history...`, run: score },
    {
      title: 'Refreshing the sources the city updates incrementally by download, as the daily refresh does, from a local Socrata stand-in serving the next day\'s rows (real view metadata and field names), then rescoring...',
      run: () => refresh(city as DemoCity, mirror),
    },
  ];
}
