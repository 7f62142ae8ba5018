import type { Pool } from 'pg';
import type { NodeProcess } from '@bhis/testing';
import { CITY_AS_OF, ensureCity, ingestCity, score, type ScoringResult } from './data-setup';

/**
 * The as-of date of the refresh: 28 days of the synthetic city's changes, about 1% of its rows (new
 * records and status changes). One real day of the city changes far less; a heavy refresh is the
 * one that must fit in its time.
 */
export const REFRESH_AS_OF = '2026-11-29';

export interface RefreshResult {
  /** how the changes were written: `bhis synth ... --changes-since` */
  generationCommand: string;
  asOf: string;
  since: string;
  files: number;
  rows: number;
  /** rows of the refresh divided by the rows of the whole city */
  shareOfCity: number;
  ingestCommand: string;
  ingestSeconds: number;
  inserted: number;
  updated: number;
  statusChanges: number;
  /** the incremental scoring run of the buildings the refresh changed */
  scoring: ScoringResult;
  /** ingest plus rescoring, wall time */
  totalSeconds: number;
}

interface RefreshWorkers {
  ingest: NodeProcess;
  scoring: NodeProcess;
}

/** Where the refresh of the city written in `cityDir` is written. */
export function refreshDir(cityDir: string): string {
  return `${cityDir}-refresh-${REFRESH_AS_OF}`;
}

/** Generates the refresh of a city (or finds it generated before). */
export function ensureRefresh(cityDir: string, buildings: number, gzip: boolean): ReturnType<typeof ensureCity> {
  return ensureCity(refreshDir(cityDir), buildings, gzip, { asOf: REFRESH_AS_OF, since: CITY_AS_OF });
}

/**
 * One refresh after the city load: the rows new or changed since the city's as-of date, written by
 * the synthetic city as files, ingested through the real worker (a file ingest compares every record
 * with the stored one and turns status changes into events), then an incremental scoring run of the
 * buildings it changed.
 */
export async function refreshCity(
  pool: Pool,
  city: { dir: string; buildings: number; gzip: boolean; rows: number },
  env: Record<string, string>,
  workers: RefreshWorkers,
): Promise<RefreshResult> {
  const dir = refreshDir(city.dir);
  const changes = await ensureRefresh(city.dir, city.buildings, city.gzip);
  const runsBefore = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM ingest_runs`);
  const ingest = await ingestCity(dir, env, workers.ingest, REFRESH_AS_OF);
  const counts = await pool.query<{ inserted: string; updated: string; status_changes: string }>(
    `SELECT COALESCE(sum((counts->'events'->>'inserted')::bigint), 0) AS inserted,
            COALESCE(sum((counts->'events'->>'updated')::bigint), 0) AS updated,
            COALESCE(sum((counts->'events'->>'status_changes')::bigint), 0) AS status_changes
       FROM (SELECT counts FROM ingest_runs ORDER BY queued_at OFFSET $1) r`,
    [Number(runsBefore.rows[0].n)],
  );
  const scoring = await score([], env, workers.scoring, REFRESH_AS_OF);
  const eventFiles = changes.report.files.filter((f) => f.source !== 'truth');
  return {
    generationCommand: changes.command,
    asOf: REFRESH_AS_OF,
    since: CITY_AS_OF,
    files: eventFiles.length,
    rows: ingest.rows,
    shareOfCity: city.rows > 0 ? ingest.rows / city.rows : 0,
    ingestCommand: ingest.command,
    ingestSeconds: ingest.wallSeconds,
    inserted: Number(counts.rows[0].inserted),
    updated: Number(counts.rows[0].updated),
    statusChanges: Number(counts.rows[0].status_changes),
    scoring,
    totalSeconds: Math.round((ingest.wallSeconds + scoring.seconds) * 10) / 10,
  };
}
