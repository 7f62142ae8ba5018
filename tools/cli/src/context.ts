import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { AppConfig, getConfig } from '@bhis/config';
import { createDataSource } from '@bhis/db';

/** Errors the CLI reports as a one-line message (no stack trace) with exit code 1. */
export class CliError extends Error {}

export function config(): AppConfig {
  return getConfig();
}

/** Runs `fn` with an initialized DataSource and always closes it. */
export async function withDataSource<T>(fn: (ds: DataSource) => Promise<T>): Promise<T> {
  const ds = createDataSource({ url: config().DATABASE_URL, poolSize: 4, applicationName: 'bhis-cli' });
  try {
    await ds.initialize();
  } catch (error) {
    const database = new URL(config().DATABASE_URL).pathname.slice(1);
    throw new CliError(
      `Cannot connect to Postgres (${(error as Error).message}). Is it running, and has "bhis db migrate" created the database "${database}"?`,
    );
  }
  try {
    return await fn(ds);
  } finally {
    await ds.destroy();
  }
}

/** The repository root: the nearest folder above this file whose package.json is this project's. */
export function repoRoot(): string {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'bhis') return dir;
  }
  throw new CliError('Cannot find the project root (package.json named "bhis").');
}
