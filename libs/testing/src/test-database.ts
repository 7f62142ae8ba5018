import { createHash, randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { MIGRATIONS, migrate } from '@bhis/db';


const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TEMPLATE_PREFIX = 'bhis_test_tpl_';
const TEST_DB_PREFIX = 'bhis_test_';

function urlFor(database: string): string {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * The template name changes whenever the migration list or a migration's code changes, so templates
 * are never stale (a migration edited before it is released included).
 */
function templateName(): string {
  const fingerprint = createHash('sha1')
    .update(MIGRATIONS.map((m) => `${m.name}\n${m.prototype.up.toString()}`).join('\n'))
    .digest('hex')
    .slice(0, 12);
  return `${TEMPLATE_PREFIX}${fingerprint}`;
}

async function withAdmin<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function ensureTemplate(): Promise<string> {
  const template = templateName();
  await withAdmin(async (admin) => {
    // serialize template creation across parallel test workers
    await admin.query('SELECT pg_advisory_lock(774411)');
    try {
      const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
      if (found.rowCount) return;
      const building = `${template}_building`;
      await admin.query(`DROP DATABASE IF EXISTS "${building}"`);
      await admin.query(`CREATE DATABASE "${building}"`);
      await migrate(urlFor(building));
      await admin.query(`ALTER DATABASE "${building}" RENAME TO "${template}"`);
      // drop templates of older migration lists
      const stale = await admin.query(
        `SELECT datname FROM pg_database WHERE datname LIKE $1 AND datname <> $2 AND datname NOT LIKE '%_building'`,
        [`${TEMPLATE_PREFIX}%`, template],
      );
      for (const row of stale.rows as { datname: string }[]) {
        await admin.query(`DROP DATABASE IF EXISTS "${row.datname}"`);
      }
    } finally {
      await admin.query('SELECT pg_advisory_unlock(774411)');
    }
  });
  return template;
}

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** A new database copied from a template (retried while another clone of the same template is running). */
export async function cloneDatabase(template: string, namePrefix: string): Promise<TestDatabase> {
  const name = `${namePrefix}${randomBytes(6).toString('hex')}`;
  await withAdmin(async (admin) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
        return;
      } catch (error) {
        // "source database is being accessed by other users": another worker is cloning it right now
        if ((error as { code?: string }).code !== '55006' || attempt >= 30) throw error;
        await new Promise((r) => setTimeout(r, 100 * attempt));
      }
    }
  });
  return {
    name,
    url: urlFor(name),
    drop: () => dropDatabase(name),
  };
}

/**
 * Drops a test database. Connections of pools that were just ended can take a moment to close, and
 * `WITH (FORCE)` would terminate them (their clients then see "terminating connection due to
 * administrator command"), so a plain drop is retried first and FORCE is the last resort.
 */
async function dropDatabase(name: string): Promise<void> {
  await withAdmin(async (admin) => {
    for (let attempt = 1; attempt <= 30; attempt++) {
      try {
        await admin.query(`DROP DATABASE IF EXISTS "${name}"`);
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== '55006') throw error;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });
}

/** A fresh, fully migrated database for one test file. */
export async function createTestDatabase(): Promise<TestDatabase> {
  return cloneDatabase(await ensureTemplate(), TEST_DB_PREFIX);
}

/** A unique Redis namespace for one test file. */
export function testRedisPrefix(): string {
  return `bhis_t_${randomBytes(4).toString('hex')}`;
}
