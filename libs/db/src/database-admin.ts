import { Client } from 'pg';
import { createDataSource } from './data-source';

function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`Unsupported database name "${name}" in DATABASE_URL`);
  return name;
}

function maintenanceUrl(url: string): string {
  const u = new URL(url);
  u.pathname = '/postgres';
  return u.toString();
}

/** Creates the database named in the URL when it does not exist yet. Returns true when created. */
export async function ensureDatabase(url: string): Promise<boolean> {
  const name = databaseName(url);
  const client = new Client({ connectionString: maintenanceUrl(url) });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount) return false;
    await client.query(`CREATE DATABASE "${name}"`);
    return true;
  } catch (error) {
    // another process created it at the same moment
    if ((error as { code?: string }).code === '42P04') return false;
    throw error;
  } finally {
    await client.end();
  }
}

export interface MigrationReport {
  createdDatabase: boolean;
  applied: string[];
}

/** Creates the database if needed and applies pending migrations (one transaction each). */
export async function migrate(url: string): Promise<MigrationReport> {
  const createdDatabase = await ensureDatabase(url);
  const ds = createDataSource({ url, poolSize: 2, applicationName: 'bhis-migrate' });
  await ds.initialize();
  try {
    const applied = await ds.runMigrations({ transaction: 'each' });
    return { createdDatabase, applied: applied.map((m) => m.name) };
  } finally {
    await ds.destroy();
  }
}
