import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { SCORER_ID } from '@bhis/domain';
import { createTestDatabase, TestDatabase } from '@bhis/testing';
import { allPartsDone, failPartedRun, finishPartedRun, lockPart, MIN_PART_BUILDINGS, partCount, partsPay, planRun, scorePart } from './scoring-parts';
import { runScoring } from './scoring-run';

const AS_OF = '2026-11-01';
const BUILDINGS = 1_100;

async function queueRun(pool: Pool, kind: 'full' | 'incremental' = 'full', asOf = AS_OF): Promise<string> {
  const runId = randomUUID();
  await pool.query(`INSERT INTO scoring_runs (id, kind, scorer_id, as_of, trigger) VALUES ($1, $4, $2, $3, 'test')`, [runId, SCORER_ID, asOf, kind]);
  return runId;
}

/** Marks the same buildings changed, with new events of theirs dated after AS_OF. */
async function markChanged(pool: Pool, bbls: string[], tag: string): Promise<void> {
  await pool.query(
    `INSERT INTO events (bbl, source, source_record_id, event_type, category, severity, status, occurred_on, attributes)
     SELECT bbl, 'hpd_violations', bbl || '-' || $2, 'hpd_violation', 'habitability', 'critical', 'open', date '2026-11-10', '{}'
       FROM unnest($1::char(10)[]) bbl`,
    [bbls, tag],
  );
  await pool.query(`INSERT INTO dirty_buildings (bbl) SELECT unnest($1::char(10)[]) ON CONFLICT DO NOTHING`, [bbls]);
}

/** building_scores and score_history as digests, run ids and timestamps left out. */
async function fingerprint(pool: Pool): Promise<{ scores: string; history: string; n: number }> {
  const { rows } = await pool.query<{ scores: string; history: string; n: number }>(
    `SELECT (SELECT md5(string_agg((to_jsonb(b) - 'run_id' - 'updated_at')::text, ',' ORDER BY bbl)) FROM building_scores b) AS scores,
            (SELECT md5(string_agg((to_jsonb(h) - 'run_id' - 'created_at')::text, ',' ORDER BY bbl, as_of)) FROM score_history h) AS history,
            (SELECT count(*)::int FROM building_scores) AS n`,
  );
  return rows[0];
}

describe('a run split into parts (real Postgres)', () => {
  let db: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 8 });
    await pool.query(`INSERT INTO sources (key, name, agency, cadence, last_refreshed_at, latest_record_date, status)
                      VALUES ('hpd_violations', 'HPD violations', 'HPD', 'daily', '2026-10-31', '2026-10-30', 'ok')`);
    await pool.query(
      `INSERT INTO buildings (bbl, borough, block, lot, address, city, zipcode, residential_units, total_units, year_built,
                              building_class, num_buildings, in_hpd_jurisdiction, hpd_legal_units, registration_end_date, owner_name)
       SELECT '2' || lpad(i::text, 5, '0') || '0001', 2, i, 1, i || ' TEST AVENUE', 'BRONX', '1045' || (i % 7), 6 + i % 60, 6 + i % 60, 1925,
              'C4', 1, true, 6 + i % 60, '2027-09-01', 'OWNER LLC'
         FROM generate_series(1, $1::int) i`,
      [BUILDINGS],
    );
    await pool.query(
      `INSERT INTO events (bbl, source, source_record_id, event_type, category, severity, status, occurred_on, attributes)
       SELECT b.bbl, 'hpd_violations', b.bbl || '-' || j, 'hpd_violation', 'habitability',
              (CASE WHEN j % 3 = 0 THEN 'critical' ELSE 'high' END)::event_severity, (CASE WHEN j % 2 = 0 THEN 'open' ELSE 'closed' END)::event_status,
              date '2026-06-01' - (j * 37 % 900), '{}'
         FROM buildings b CROSS JOIN LATERAL generate_series(1, abs(hashtext(b.bbl)) % 25) j`,
    );
  });

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  it('sizes parts to the city: at most the setting, at least MIN_PART_BUILDINGS each, at least one', () => {
    expect(partCount(0, 8)).toBe(1);
    expect(partCount(MIN_PART_BUILDINGS * 2 - 1, 8)).toBe(1);
    expect(partCount(MIN_PART_BUILDINGS * 2, 8)).toBe(2);
    expect(partCount(445_000, 8)).toBe(8);
    expect(partCount(445_000, 1)).toBe(1);
  });

  it('scores every building once, with a part scored twice as after a killed worker, and ends identical to a single-process run', async () => {
    await runScoring(pool, { runId: await queueRun(pool), kind: 'full', asOf: AS_OF, writeCurrent: true });
    const single = await fingerprint(pool);
    expect(single.n).toBe(BUILDINGS);

    const runId = await queueRun(pool);
    await pool.query(`UPDATE scoring_runs SET status = 'running', started_at = now() WHERE id = $1`, [runId]);
    const plan = await planRun(pool, runId, { kind: 'full', asOf: AS_OF, maxParts: 8 });
    expect(plan.parts).toBe(4);
    expect(plan.total).toBe(BUILDINGS);
    // a retried plan finds the same plan
    expect((await planRun(pool, runId, { kind: 'full', asOf: AS_OF, maxParts: 8 })).start).toEqual(plan.start);
    const ranges = await pool.query<{ after_bbl: string; last_bbl: string | null }>(`SELECT after_bbl, last_bbl FROM scoring_run_parts WHERE run_id = $1 ORDER BY part`, [runId]);
    expect(ranges.rows).toHaveLength(4);
    ranges.rows.forEach((r, i) => {
      if (i > 0) expect(r.after_bbl).toBe(ranges.rows[i - 1].last_bbl);
    });
    expect(ranges.rows[3].last_bbl).toBeNull();

    // two parts at once, as two workers take them
    await Promise.all([scorePart(pool, runId, 2), scorePart(pool, runId, 0)]);
    expect(await allPartsDone(pool, runId)).toBe(false);
    await expect(finishPartedRun(pool, runId)).rejects.toThrow(/2 of 4 parts are not done/);
    // a part whose worker died after it was scored, before it was marked done: scored again from scratch
    await scorePart(pool, runId, 1);
    await pool.query(`UPDATE scoring_run_parts SET status = 'running' WHERE run_id = $1 AND part = 1`, [runId]);
    expect(await scorePart(pool, runId, 1)).toBe('scored');
    expect(await scorePart(pool, runId, 1)).toBe('already-scored');
    await scorePart(pool, runId, 3);
    expect(await allPartsDone(pool, runId)).toBe(true);

    const parts = await pool.query<{ scored: number; attempt: number }>(`SELECT scored, attempt FROM scoring_run_parts WHERE run_id = $1 ORDER BY part`, [runId]);
    expect(parts.rows.reduce((sum, p) => sum + p.scored, 0)).toBe(BUILDINGS);
    expect(parts.rows.map((p) => p.attempt)).toEqual([1, 2, 1, 1]);
    const progress = await pool.query<{ progress: { scored: number; total: number } }>(`SELECT counts->'progress' AS progress FROM scoring_runs WHERE id = $1`, [runId]);
    expect(progress.rows[0].progress).toMatchObject({ scored: BUILDINGS, total: BUILDINGS });

    const counts = await finishPartedRun(pool, runId);
    expect(counts.buildings).toBe(BUILDINGS);
    expect(counts.failed).toBe(0);
    const run = await pool.query<{ status: string; buildings: number; parts: number }>(
      `SELECT status, (counts->>'buildings')::int AS buildings, (counts->>'parts')::int AS parts FROM scoring_runs WHERE id = $1`,
      [runId],
    );
    expect(run.rows[0]).toEqual({ status: 'succeeded', buildings: BUILDINGS, parts: 4 });
    expect(await fingerprint(pool)).toEqual(single);
    const ofRun = await pool.query<{ n: number }>(`SELECT count(DISTINCT bbl)::int AS n FROM score_history WHERE run_id = $1`, [runId]);
    expect(ofRun.rows[0].n).toBe(BUILDINGS);
    const current = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM building_scores WHERE run_id = $1`, [runId]);
    expect(current.rows[0].n).toBe(BUILDINGS);
    const staging = await pool.query(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename ~ '^scoring_(stg|health)_'`);
    expect(staging.rows[0].n).toBe(0);

    // a finish retried after its commit does not switch again; a part of an ended run is left alone
    expect(await finishPartedRun(pool, runId)).toMatchObject({ buildings: BUILDINGS, crossings: counts.crossings });
    expect(await scorePart(pool, runId, 0)).toBe('run-ended');
  });

  it('leaves no staging behind when a part ends after its run failed', async () => {
    const runId = await queueRun(pool);
    await pool.query(`UPDATE scoring_runs SET status = 'running', started_at = now() WHERE id = $1`, [runId]);
    await planRun(pool, runId, { kind: 'full', asOf: AS_OF, maxParts: 8 });
    const scoring = scorePart(pool, runId, 0);
    await failPartedRun(pool, runId, 'part 1: gave up');
    expect(await scoring).toBe('run-ended');
    const staging = await pool.query(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename ~ '^scoring_(stg|health)_'`);
    expect(staging.rows[0].n).toBe(0);
    const run = await pool.query<{ status: string; error: string }>(`SELECT status, error FROM scoring_runs WHERE id = $1`, [runId]);
    expect(run.rows[0]).toEqual({ status: 'failed', error: 'part 1: gave up' });
  });

  it('lets one worker at a time hold a part', async () => {
    const runId = await queueRun(pool);
    const held = await lockPart(pool, runId, 0);
    await expect(lockPart(pool, runId, 0)).rejects.toThrow(/being scored/);
    const other = await lockPart(pool, runId, 1);
    await other.release();
    await held.release();
    await (await lockPart(pool, runId, 0)).release();
  });

  it('splits an incremental run of many changed buildings into parts, ending as the same run in one job', async () => {
    const asOf = '2026-11-20';
    const { rows } = await pool.query<{ bbl: string }>(`SELECT bbl FROM buildings ORDER BY md5(bbl) LIMIT 600`);
    const changed = rows.map((r) => r.bbl);
    await runScoring(pool, { runId: await queueRun(pool), kind: 'full', asOf: AS_OF, writeCurrent: true });
    const base = await fingerprint(pool);

    // one job
    await markChanged(pool, changed, 'a');
    const single = await queueRun(pool, 'incremental', asOf);
    expect(await partsPay(pool, single, 1)).toBe(false);
    const inOneJob = await runScoring(pool, { runId: single, kind: 'incremental', asOf, writeCurrent: true });
    expect(inOneJob.buildings).toBe(600);
    const expected = await fingerprint(pool);
    expect(expected.scores).not.toBe(base.scores);

    // the same buildings marked again, their scores and this date's history gone: scored in parts, all ends as before
    await pool.query(`INSERT INTO dirty_buildings (bbl) SELECT unnest($1::char(10)[])`, [changed]);
    await pool.query(`DELETE FROM building_scores WHERE bbl = ANY($1::char(10)[])`, [changed]);
    await pool.query(`DELETE FROM score_history WHERE run_id = $1`, [single]);
    const parted = await queueRun(pool, 'incremental', asOf);
    expect(await partsPay(pool, parted, 8)).toBe(true);
    await pool.query(`UPDATE scoring_runs SET status = 'running', started_at = now() WHERE id = $1`, [parted]);
    // marked after the run started: left for the next run
    const late = (await pool.query<{ bbl: string }>(`SELECT bbl FROM buildings WHERE NOT (bbl = ANY($1::char(10)[])) ORDER BY bbl LIMIT 1`, [changed])).rows[0].bbl;
    const plan = await planRun(pool, parted, { kind: 'incremental', asOf, maxParts: 8 });
    await pool.query(`INSERT INTO dirty_buildings (bbl) VALUES ($1)`, [late]);
    expect(plan).toMatchObject({ kind: 'incremental', parts: 2, total: 600 });
    expect(await partsPay(pool, parted, 1)).toBe(true);
    await Promise.all([scorePart(pool, parted, 1), scorePart(pool, parted, 0)]);
    const counts = await finishPartedRun(pool, parted);
    expect(counts).toMatchObject({ buildings: 600, failed: 0, kind: 'incremental' });
    expect(await fingerprint(pool)).toEqual(expected);
    const ofRun = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM score_history WHERE run_id = $1`, [parted]);
    expect(ofRun.rows[0].n).toBe(600);
    const left = await pool.query<{ bbl: string }>(`SELECT bbl FROM dirty_buildings`);
    expect(left.rows.map((r) => r.bbl)).toEqual([late]);
  });
});
