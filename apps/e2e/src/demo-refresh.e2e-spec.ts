import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { buildProjects, createTestDatabase, freePort, runCli, TestDatabase, testRedisPrefix } from '@bhis/testing';

const REFRESH_LINE = /(\d+) sources downloaded from http:\/\/127\.0\.0\.1:\d+(?: \((\d+) unchanged since their last download: skipped\))?: ([\d,]+) rows read, ([\d,]+) records new, ([\d,]+) changed, ([\d,]+) status changes/;
const RESCORED_LINE = /([\d,]+) buildings rescored; refresh and rescoring in/;
const count = (text: string) => Number(text.replace(/,/g, ''));

/**
 * `bhis demo --no-serve` as `npm run demo` runs it, on a small city: after the city's files are
 * loaded and scored, its next day is served by the local Socrata stand-in and downloaded by the
 * built ingest worker (view metadata, SODA JSON rows under the real field names), then rescored; the
 * demo still ends with its key and curl line. A second demo the same day finds every set unchanged.
 */
describe('npm run demo: the refresh by download after the first load', () => {
  let db: TestDatabase;
  let pool: Pool;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bhis-demo-'));
  let env: Record<string, string>;

  beforeAll(async () => {
    // the suite builds the apps; the demo is a command of the CLI
    buildProjects(['cli']);
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 2 });
    env = { DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix(), PORT: String(await freePort()), DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  }, 180_000);

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('downloads the changed rows of every incremental source, rescores, and prints what changed before the key and the curl line', async () => {
    const demo = await runCli(['demo', '--no-serve', '--buildings', '300'], env);
    expect({ code: demo.code, stderr: demo.stderr.slice(-2000) }).toEqual({ code: 0, stderr: expect.any(String) });
    const out = demo.stdout;
    expect(out).toMatch(/^6\. Refreshing the sources the city updates incrementally by download/m);
    const refresh = REFRESH_LINE.exec(out);
    expect(refresh).not.toBeNull();
    const [, sources, skipped, read, inserted] = refresh as RegExpExecArray;
    expect(skipped).toBeUndefined();

    // one download run per source, every one read from the stand-in as SODA rows and landed
    const runs = await pool.query<{ source: string; status: string; read: number; layout: string; inserted: number }>(
      `SELECT source, status, (counts->>'read')::int AS read, counts->>'layout' AS layout, (counts->'events'->>'inserted')::int AS inserted
         FROM ingest_runs WHERE input = 'download' ORDER BY queued_at`,
    );
    expect(runs.rows).toHaveLength(Number(sources));
    expect(Number(sources)).toBeGreaterThan(3);
    for (const run of runs.rows) expect(run).toMatchObject({ status: 'succeeded', layout: expect.stringMatching(/^soda(\+soda)*$/) });
    expect(runs.rows.reduce((sum, r) => sum + r.read, 0)).toBe(count(read));
    expect(runs.rows.reduce((sum, r) => sum + r.inserted, 0)).toBe(count(inserted));
    expect(count(inserted)).toBeGreaterThan(0);

    // rescored after the downloads: an incremental run of the buildings they changed
    const rescore = await pool.query<{ status: string; buildings: number }>(
      `SELECT status, (counts->>'buildings')::int AS buildings FROM scoring_runs WHERE kind = 'incremental'
          AND queued_at > (SELECT max(finished_at) FROM ingest_runs WHERE input = 'download')`,
    );
    expect(rescore.rows).toHaveLength(1);
    expect(rescore.rows[0].status).toBe('succeeded');
    expect(rescore.rows[0].buildings).toBeGreaterThan(0);
    expect(count((RESCORED_LINE.exec(out) as RegExpExecArray)[1])).toBe(rescore.rows[0].buildings);

    // the refresh comes before what the demo ends with
    const lines = out.trimEnd().split('\n');
    expect(out.indexOf('sources downloaded from')).toBeLessThan(out.indexOf('Demo key (read-only'));
    expect(lines.some((line) => /^Demo key \(read-only, \d+ requests\/min\): sk_demo_/.test(line))).toBe(true);
    expect(lines.findIndex((line) => /^ {2}curl -s -H "Authorization: Bearer sk_demo_\S+" http:\/\/127\.0\.0\.1:\d+\/api\/v1\/buildings\/\d{10}$/.test(line))).toBeGreaterThan(lines.length - 4);
  }, 600_000);

  it('finds every set unchanged on a second demo the same day: skipped, nothing read', async () => {
    const demo = await runCli(['demo', '--no-serve', '--buildings', '300'], env);
    expect({ code: demo.code, stderr: demo.stderr.slice(-2000) }).toEqual({ code: 0, stderr: expect.any(String) });
    expect(demo.stdout).toMatch(/already generated in .* \(as of \d{4}-\d{2}-\d{2}, its refresh of \d{4}-\d{2}-\d{2}\)/);
    const [, sources, skipped, read] = REFRESH_LINE.exec(demo.stdout) as RegExpExecArray;
    expect(skipped).toBe(sources);
    expect(count(read)).toBe(0);
  }, 600_000);
});
