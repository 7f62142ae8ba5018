import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { runScoring } from '@bhis/score-runner';
import { sourceStatuses } from '@bhis/runs';
import { createTestDatabase, TestDatabase } from '@bhis/testing';
import { generateDemoCity } from './demo-steps';
import { loadCity } from './validate';

const today = new Date().toISOString().slice(0, 10);

/** The stale-source:<key> flags of every scored building, by source key. */
async function staleFlags(pool: Pool): Promise<Map<string, number>> {
  const { rows } = await pool.query<{ key: string; n: number }>(
    `SELECT substr(f, length('stale-source:') + 1) AS key, count(*)::int AS n
       FROM building_scores, unnest(flags || ARRAY(SELECT jsonb_array_elements_text(confidence -> 'flags'))) f
      WHERE f LIKE 'stale-source:%' GROUP BY 1`,
  );
  return new Map(rows.map((r) => [r.key, r.n]));
}

/**
 * The demo city generated, loaded and scored today: what /sources says and what the buildings say
 * agree. Generated as the demo generates it (its seed and formats, dated the day before, before its
 * refresh: apps/e2e/src/demo-refresh.e2e-spec.ts), at a quarter of its size.
 */
describe('the freshness of a freshly generated demo city', () => {
  let db: TestDatabase;
  let pool: Pool;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'bhis-demo-freshness-'));
    await generateDemoCity(dir, today, 500);
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 4 });
    // loaded as the demo does, observed the day it runs
    await loadCity(pool, dir, undefined, today);
    await runScoring(pool, { runId: randomUUID(), kind: 'full', asOf: today, writeCurrent: true });
  }, 600_000);

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('reports every source ok, and no building carries a stale-source flag', async () => {
    const statuses = await sourceStatuses(pool);
    expect(statuses.filter((s) => s.state !== 'ok').map((s) => `${s.key}: ${s.state}`)).toEqual([]);
    expect(statuses.every((s) => !s.is_late && s.last_error === null)).toBe(true);
    expect([...(await staleFlags(pool))]).toEqual([]);
  });

  it('names in the buildings\' flags exactly the sources /sources says are not ok: one failing, one late', async () => {
    await pool.query(
      `UPDATE sources SET status = 'failed', failing_since = now() - interval '2 days', last_error_code = 'soda_field_mismatch',
              last_error_message = 'no field for column X', failure_permanent = true WHERE key = 'dob_violations'`,
    );
    await pool.query(`UPDATE sources SET last_refreshed_at = now() - interval '5 days' WHERE key = 'hpd_complaints'`);
    await runScoring(pool, { runId: randomUUID(), kind: 'full', asOf: today, writeCurrent: true });
    const statuses = new Map((await sourceStatuses(pool)).map((s) => [s.key, s]));
    expect(statuses.get('dob_violations')).toMatchObject({ state: 'failing', last_error: { code: 'soda_field_mismatch', permanent: true } });
    expect(statuses.get('hpd_complaints')).toMatchObject({ state: 'late', is_late: true });
    const notOk = [...statuses.values()].filter((s) => s.state !== 'ok').map((s) => s.key);
    expect(notOk.sort()).toEqual(['dob_violations', 'hpd_complaints']);
    // every building of the city expects complaints and DOB records: each names both, and nothing else
    const flags = await staleFlags(pool);
    const buildings = (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM building_scores`)).rows[0].n;
    expect([...flags.keys()].sort()).toEqual(notOk.sort());
    expect(flags.get('dob_violations')).toBe(buildings);
    expect(flags.get('hpd_complaints')).toBe(buildings);
  });
});
