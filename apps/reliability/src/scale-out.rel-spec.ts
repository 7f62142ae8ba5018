import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { runScoring } from '@bhis/score-runner';
import { createTestDatabase, NodeProcess, runCliJsonTimed, TestDatabase } from '@bhis/testing';
import { scoresFingerprint } from './support/fingerprint';
import { TEST_TIMEOUT_MS } from './support/mode';
import { recordResult } from './support/results';
import { CITY_AS_OF, redisPrefix, seedCityFiles } from './support/seeded-city';

interface IngestRow {
  file: string;
  source: string;
  status: string;
  read: number | null;
}

interface ScoreSummary {
  run_id: string;
  status: string;
  buildings: number | null;
  error: string | null;
}

/** What was loaded, as digests: events and buildings without ids and timestamps. */
async function dataFingerprint(pool: Pool): Promise<{ events: number; eventsDigest: string; buildingsDigest: string; links: number }> {
  const { rows } = await pool.query<{ events: number; events_digest: string; buildings_digest: string; links: number }>(
    `SELECT (SELECT count(*)::int FROM events) AS events,
            (SELECT md5(string_agg((to_jsonb(e) - 'id' - 'first_seen_at' - 'updated_at' - 'row_hash')::text, ',' ORDER BY bbl, source, source_record_id, event_type)) FROM events e) AS events_digest,
            (SELECT md5(string_agg((to_jsonb(b) - 'created_at' - 'updated_at')::text, ',' ORDER BY bbl)) FROM buildings b) AS buildings_digest,
            (SELECT count(*)::int FROM complaint_311_links) AS links`,
  );
  const row = rows[0];
  return { events: row.events, eventsDigest: row.events_digest, buildingsDigest: row.buildings_digest, links: row.links };
}

/**
 * The current scores, per building, with the times of day and the event ids masked: the two databases
 * were loaded at different moments and in a different order of files, so sources were refreshed at
 * other times and events got other ids (the events themselves are compared without ids).
 */
async function currentScores(pool: Pool): Promise<{ bbl: string; row: string }[]> {
  const { rows } = await pool.query<{ bbl: string; row: string }>(
    `SELECT bbl, regexp_replace(regexp_replace((to_jsonb(b) - 'run_id' - 'updated_at')::text,
                   'T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})?', 'T*', 'g'),
                 '"event_ids": \\[[^]]*\\]', '"event_ids": [*]', 'g') AS row
       FROM building_scores b ORDER BY bbl`,
  );
  return rows;
}

/** The first building whose score differs between two lists of the same buildings, or null. */
function firstDifference(a: { bbl: string; row: string }[], b: { bbl: string; row: string }[]): { a?: string; b?: string } | null {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i]?.bbl !== b[i]?.bbl || a[i]?.row !== b[i]?.row) return { a: a[i]?.row, b: b[i]?.row };
  }
  return null;
}

/** Loads the city with `bhis ingest --dir` and scores it in full, with `workers` ingest and `workers` scoring workers on one database. */
async function loadAndScore(db: TestDatabase, dir: string, workers: number) {
  const env = { DATABASE_URL: db.url, REDIS_PREFIX: redisPrefix(), LOG_LEVEL: 'info', WORKER_LOCK_MS: '10000' };
  const ingest = Array.from({ length: workers }, () => NodeProcess.app('ingest', env));
  const scoring = Array.from({ length: workers }, () => NodeProcess.app('scoring', env));
  try {
    for (const w of [...ingest, ...scoring]) await w.waitFor(/(ingest|scoring) worker started/);
    const loaded = await runCliJsonTimed<IngestRow[]>(['ingest', '--dir', dir, '--observed-on', CITY_AS_OF, '--json'], env, ingest);
    const scored = await runCliJsonTimed<ScoreSummary>(['score', '--full', '--as-of', CITY_AS_OF, '--wait', '--json'], env, scoring);
    return {
      files: loaded.value,
      ingestSeconds: loaded.elapsedMs / 1000,
      run: scored.value,
      scoringSeconds: scored.elapsedMs / 1000,
      // which worker did what, from its own log
      ingestRunsPerWorker: ingest.map((w) => (w.output.match(/ingest run \S+ \(\w+\): succeeded/g) ?? []).length),
      partsPerWorker: scoring.map((w) => (w.output.match(/part \d+ scored/g) ?? []).length),
    };
  } finally {
    for (const w of [...ingest, ...scoring]) await w.stop();
  }
}

describe('two ingest and two scoring workers on one database', () => {
  let single: TestDatabase;
  let pair: TestDatabase;
  let singlePool: Pool;
  let pairPool: Pool;

  beforeAll(async () => {
    [single, pair] = [await createTestDatabase(), await createTestDatabase()];
    singlePool = new Pool({ connectionString: single.url, max: 2 });
    pairPool = new Pool({ connectionString: pair.url, max: 6 });
  }, 600_000);

  afterAll(async () => {
    await singlePool?.end();
    await pairPool?.end();
    await Promise.all([single?.drop(), pair?.drop()]);
  }, 120_000);

  it('share a city load and a full scoring run: every file loaded once, every building scored once, the same result as one worker of each', async () => {
    const { dir, files } = await seedCityFiles();
    const one = await loadAndScore(single, dir, 1);
    const two = await loadAndScore(pair, dir, 2);

    // every file loaded once: one run per file, one attempt, every row read
    const runs = await pairPool.query<{ input: string; runs: number; attempts: number; status: string[]; read: number }>(
      `SELECT input, count(*)::int AS runs, sum(attempt)::int AS attempts, array_agg(DISTINCT status) AS status, max((counts->>'read')::int) AS read
         FROM ingest_runs GROUP BY input`,
    );
    expect(runs.rows).toHaveLength(files.length);
    for (const file of files) {
      const row = runs.rows.find((r) => r.input === file.file);
      expect({ file: file.file, runs: row?.runs, attempts: row?.attempts, status: row?.status, read: row?.read }).toEqual({ file: file.file, runs: 1, attempts: 1, status: ['succeeded'], read: file.rows });
    }
    expect(two.files.every((f) => f.status === 'succeeded')).toBe(true);
    // both workers loaded files, and both scored parts of the one run
    expect(two.ingestRunsPerWorker.every((n) => n > 0)).toBe(true);
    expect(two.ingestRunsPerWorker.reduce((a, b) => a + b, 0)).toBe(files.length);
    expect(two.partsPerWorker.every((n) => n > 0)).toBe(true);

    // every building scored once in the run: its parts cover the city without overlap
    expect(two.run.status).toBe('succeeded');
    const buildings = (await pairPool.query<{ n: number }>(`SELECT count(*)::int AS n FROM buildings`)).rows[0].n;
    const parts = await pairPool.query<{ parts: number; done: number; scored: number; attempts: number }>(
      `SELECT count(*)::int AS parts, count(*) FILTER (WHERE status = 'done')::int AS done, sum(scored)::int AS scored, sum(attempt)::int AS attempts
         FROM scoring_run_parts WHERE run_id = $1`,
      [two.run.run_id],
    );
    expect(parts.rows[0].parts).toBeGreaterThan(1);
    expect(parts.rows[0]).toEqual({ parts: parts.rows[0].parts, done: parts.rows[0].parts, scored: buildings, attempts: parts.rows[0].parts });
    expect(two.partsPerWorker.reduce((a, b) => a + b, 0)).toBe(parts.rows[0].parts);
    const history = await pairPool.query<{ rows: number; bbls: number }>(`SELECT count(*)::int AS rows, count(DISTINCT bbl)::int AS bbls FROM score_history WHERE run_id = $1`, [two.run.run_id]);
    expect(history.rows[0]).toEqual({ rows: buildings, bbls: buildings });
    expect(two.run.buildings).toBe(buildings);

    // the first load deferred the secondary indexes of events and built them at the end, in both databases
    for (const pool of [singlePool, pairPool]) {
      const indexes = await pool.query<{ deferred: number; indexes: string[] }>(
        `SELECT (SELECT count(*)::int FROM deferred_event_indexes) AS deferred,
                (SELECT array_agg(indexrelid::regclass::text ORDER BY indexrelid::regclass::text) FROM pg_index WHERE indrelid = 'events'::regclass) AS indexes`,
      );
      expect(indexes.rows[0]).toEqual({ deferred: 0, indexes: ['events_area_reporting_idx', 'events_bbl_source_source_record_id_event_type_key', 'events_timeline_idx'] });
    }

    // the same data and the same scores as one worker of each
    expect(await dataFingerprint(pairPool)).toEqual(await dataFingerprint(singlePool));
    const [pairScores, singleScores] = [await scoresFingerprint(pairPool), await scoresFingerprint(singlePool)];
    expect({ ...pairScores, buildingScoresDigest: '' }).toEqual({ ...singleScores, buildingScoresDigest: '' });
    expect(firstDifference(await currentScores(pairPool), await currentScores(singlePool))).toBeNull();
    // and on the very same data, to the byte: the split run against a single-process run of the same as-of date
    await runScoring(pairPool, { runId: randomUUID(), kind: 'full', asOf: CITY_AS_OF, writeCurrent: true });
    expect(await scoresFingerprint(pairPool)).toEqual(pairScores);

    recordResult('scale-out', {
      files: files.length,
      buildings,
      parts: parts.rows[0].parts,
      ingestSeconds: { oneWorker: one.ingestSeconds, twoWorkers: two.ingestSeconds },
      scoringSeconds: { oneWorker: one.scoringSeconds, twoWorkers: two.scoringSeconds },
      ingestRunsPerWorker: two.ingestRunsPerWorker,
      partsPerWorker: two.partsPerWorker,
    });
  }, TEST_TIMEOUT_MS);
});
