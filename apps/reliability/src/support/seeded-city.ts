import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { MIGRATIONS, migrate } from '@bhis/db';
import { generateCity } from '@bhis/synth';
import { SEED_CITY_BUILDINGS } from './mode';
import { cloneDatabase, NodeProcess, repoRoot, runCliJson, TestDatabase } from '@bhis/testing';

const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const CITY_AS_OF = '2026-11-01';
/** The as-of date of the scores the seeded database already holds ("the previous scores"). */
export const PREVIOUS_AS_OF = '2026-10-01';
const SEED = 'reliability';

/**
 * What the generator writes depends on its code: the city's files are kept per version of it (a hash of
 * libs/synth/src), so a change to a format or a record never meets files an older generator wrote.
 */
function generatorVersion(): string {
  const root = path.join(repoRoot(), 'libs/synth/src');
  const hash = createHash('sha1');
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) hash.update(`${path.relative(root, full)}\n`).update(readFileSync(full));
    }
  };
  walk(root);
  return hash.digest('hex').slice(0, 10);
}

export function databaseUrl(database: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function withAdmin<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export interface CityFile {
  source: string;
  file: string;
  rows: number;
  bytes: number;
}

/** The synthetic city's files (generated once per machine and generator version into the temp folder). */
export async function seedCityFiles(): Promise<{ dir: string; files: CityFile[] }> {
  const dir = path.join(tmpdir(), 'bhis-reliability', `city-${SEED_CITY_BUILDINGS}-${generatorVersion()}`);
  const reportFile = `${dir}.json`;
  if (existsSync(reportFile)) {
    const files = JSON.parse(readFileSync(reportFile, 'utf8')) as CityFile[];
    if (files.every((f) => existsSync(f.file))) return { dir, files };
  }
  mkdirSync(dir, { recursive: true });
  const report = await generateCity({ buildings: SEED_CITY_BUILDINGS, seed: SEED, outDir: dir, asOf: CITY_AS_OF });
  const files = report.files.filter((f) => f.source !== 'truth').map((f) => ({ source: f.source, file: path.resolve(dir, f.file), rows: f.rows, bytes: f.bytes }));
  writeFileSync(reportFile, JSON.stringify(files));
  return { dir, files };
}

function templateName(): string {
  const fingerprint = createHash('sha1')
    .update([MIGRATIONS.map((m) => `${m.name}\n${m.prototype.up.toString()}`).join('\n'), SEED_CITY_BUILDINGS, SEED, CITY_AS_OF, PREVIOUS_AS_OF, generatorVersion()].join('|'))
    .digest('hex')
    .slice(0, 10);
  return `bhis_rel_tpl_${fingerprint}`;
}

interface IngestRow {
  source: string;
  status: string;
  error: string | null;
}

/** Loads the city through the real ingest worker and scores it (as of PREVIOUS_AS_OF) with the real scoring worker. */
async function buildTemplate(database: string, dir: string): Promise<void> {
  const url = databaseUrl(database);
  await migrate(url);
  const env = { DATABASE_URL: url, REDIS_PREFIX: `bhis_rel_${randomBytes(4).toString('hex')}`, LOG_LEVEL: 'info', WORKER_LOCK_MS: '10000' };
  const ingest = NodeProcess.app('ingest', env);
  const scoring = NodeProcess.app('scoring', env);
  try {
    await ingest.waitFor('ingest worker started');
    await scoring.waitFor('scoring worker started');
    const rows = await runCliJson<IngestRow[]>(['ingest', '--dir', dir, '--observed-on', CITY_AS_OF, '--json'], env, [ingest]);
    const failed = rows.filter((r) => r.status !== 'succeeded');
    if (failed.length > 0) throw new Error(`seed ingest failed: ${JSON.stringify(failed)}`);
    const score = await runCliJson<{ status: string; error: string | null }>(['score', '--full', '--as-of', PREVIOUS_AS_OF, '--wait', '--json'], env, [scoring]);
    if (score.status !== 'succeeded') throw new Error(`seed scoring failed: ${score.error}`);
  } finally {
    await ingest.stop();
    await scoring.stop();
  }
}

/** Name of a database holding the seeded city (ingested and scored once; reused while the migrations are the same). */
export async function seededTemplate(): Promise<string> {
  const template = templateName();
  const { dir } = await seedCityFiles();
  await withAdmin(async (admin) => {
    await admin.query('SELECT pg_advisory_lock(774413)');
    try {
      const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
      if (found.rowCount) return;
      const building = `${template}_building`;
      await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${building}"`);
      await buildTemplate(building, dir);
      await admin.query(`ALTER DATABASE "${building}" RENAME TO "${template}"`);
    } finally {
      await admin.query('SELECT pg_advisory_unlock(774413)');
    }
  });
  return template;
}

export type SeededDatabase = TestDatabase;

/** A fresh copy of the seeded city for one test. */
export async function cloneSeededCity(): Promise<SeededDatabase> {
  return cloneDatabase(await seededTemplate(), 'bhis_rel_');
}

export function redisPrefix(): string {
  return `bhis_rel_${randomBytes(4).toString('hex')}`;
}
