import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Pool } from 'pg';
import { pgPool } from '@bhis/db';
import { generateCity } from '@bhis/synth';
import { CliError, config, withDataSource } from '../context';
import { withQueue } from '../queues';
import { recognisedFiles, waitForRun } from './ingest';
import { waitForScoring } from './score';
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

/**
 * The demo city, dated the day it is generated: its newest records are of that day, as the city's
 * are on the day they are downloaded, so a fresh demo is not late by the cadences of its sources
 * (a city of a fixed older date would be, by the record allowances of libs/scoring/src/freshness.ts).
 * A city generated before (same size and seed) is reused as it is, dated the day it was made.
 */
export async function generateDemoCity(
  dir: string,
  today: string = new Date().toISOString().slice(0, 10),
  buildings: number = DEMO_CITY.buildings,
): Promise<{ asOf: string; report: Awaited<ReturnType<typeof generateCity>> | null }> {
  const marker = path.join(dir, '.complete');
  const made = existsSync(marker) ? (JSON.parse(readFileSync(marker, 'utf8')) as { buildings?: number; seed?: string; asOf?: string }) : null;
  if (made?.buildings === buildings && made.seed === DEMO_CITY.seed && made.asOf) return { asOf: made.asOf, report: null };
  const report = await generateCity({ buildings, seed: DEMO_CITY.seed, outDir: dir, asOf: today });
  writeFileSync(marker, JSON.stringify({ ...DEMO_CITY, buildings, asOf: today }));
  return { asOf: today, report };
}

async function generate(): Promise<void> {
  const dir = cityDir();
  const city = await generateDemoCity(dir);
  if (!city.report) {
    say(`already generated in ${dir} (as of ${city.asOf})`);
    return;
  }
  const { report } = city;
  say(`${report.buildings} buildings, ${report.eventRows.toLocaleString('en-US')} event rows in ${report.files.length} files, as of ${city.asOf} (${(report.elapsedMs / 1000).toFixed(1)} s)`);
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

export function demoSteps(): DemoStep[] {
  return [
    { title: `Generating a synthetic city (${DEMO_CITY.buildings} buildings, 15 years, the 25 real file formats)...`, run: generate },
    { title: 'Ingesting every file through the ingest worker...', run: ingest },
    { title: `Scoring every building, and ${HISTORY_MONTHS} months of monthly history...`, run: score },
  ];
}
