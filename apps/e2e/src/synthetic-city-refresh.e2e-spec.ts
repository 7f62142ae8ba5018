import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { Pool } from 'pg';
import { QUEUES } from '@bhis/queue';
import { enqueueIngest, getRun, syncSourceCatalog, type IngestRunRow } from '@bhis/runs';
import { getSource, sourceForFile } from '@bhis/sources';
import { generateCity, mirrorWorkerEnv, OUTPUT_FILES, publishSyntheticRefresh, SocrataMirror } from '@bhis/synth';
import { createTestDatabase, NodeProcess, poll, TestDatabase, testRedisPrefix } from '@bhis/testing';

const CITY_AS_OF = '2026-08-01';
const REFRESH_AS_OF = '2026-11-29';
/** One source per family: HPD, DOB (alphanumeric complaint numbers, the upper-case facade layout), DOHMH (the 2026 rodent layout), 311. */
const REFRESHED = ['hpd_violations', 'hpd_complaints', 'dob_complaints', 'dob_facades', 'dohmh_rodents', 'nyc311'] as const;

/**
 * The synthetic city refreshed the way the city is: the built ingest worker loads a small city from
 * its files, then downloads several sources from a local Socrata mirror that serves each data set's
 * real view metadata and the city's changed rows as SODA JSON rows named by that metadata.
 */
describe('the synthetic city refreshed from a local Socrata mirror', () => {
  let db: TestDatabase;
  let pool: Pool;
  let worker: NodeProcess;
  let connection: IORedis;
  let queue: Queue;
  const root = mkdtempSync(path.join(tmpdir(), 'bhis-synth-mirror-'));
  const cityDir = path.join(root, 'city');
  const changesDir = path.join(root, 'changes');
  const wholeDir = path.join(root, 'whole');
  const mirror = new SocrataMirror(path.join(root, 'mirror'));
  const prefix = testRedisPrefix();

  const finished = (runId: string) =>
    poll('the run to end', async () => {
      const run = await getRun(pool, runId);
      return run && ['succeeded', 'failed', 'skipped', 'cancelled'].includes(run.status) ? run : null;
    }, 120_000);

  beforeAll(async () => {
    // without the rare malformed rows: every row is valid, so none may be quarantined
    await generateCity({ buildings: 300, seed: '7', quirks: false, outDir: cityDir, asOf: CITY_AS_OF });
    await generateCity({ buildings: 300, seed: '7', quirks: false, outDir: changesDir, asOf: REFRESH_AS_OF, changesSince: CITY_AS_OF });
    // a set the city replaces whole (DOB complaints) is refreshed from its whole export
    await generateCity({ buildings: 300, seed: '7', quirks: false, outDir: wholeDir, asOf: REFRESH_AS_OF });
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 4 });
    await syncSourceCatalog(pool);
    await mirror.start();
    connection = new IORedis({ maxRetriesPerRequest: null });
    queue = new Queue(QUEUES.ingest, { connection, prefix });
    worker = NodeProcess.app('ingest', mirrorWorkerEnv(mirror, db.url, prefix));
    await worker.waitFor('ingest worker started');
  }, 240_000);

  afterAll(async () => {
    await worker?.kill9();
    await queue?.close();
    connection?.disconnect();
    await mirror.stop();
    await pool?.end();
    await db?.drop();
    rmSync(root, { recursive: true, force: true });
  }, 60_000);

  it('loads the city from its files, then refreshes one source per family by download, every changed row landing', async () => {
    // the city's files: the building files first, one by one, then the event files
    const files = readdirSync(cityDir).flatMap((name) => {
      const match = sourceForFile(name);
      return match ? [{ file: path.join(cityDir, name), source: match.source.key }] : [];
    });
    const facts = files.filter(({ source }) => getSource(source).produces.facts.length > 0);
    for (const { file, source } of facts) {
      const queued = await enqueueIngest(queue, pool, { source, input: { kind: 'file', path: file }, trigger: 'test', observedOn: CITY_AS_OF });
      expect((await finished(queued.runId)).status).toBe('succeeded');
    }
    const events = files.filter((f) => !facts.includes(f));
    const queued = [];
    for (const { file, source } of events) queued.push(await enqueueIngest(queue, pool, { source, input: { kind: 'file', path: file }, trigger: 'test', observedOn: CITY_AS_OF }));
    for (const { runId } of queued) expect((await finished(runId)).status).toBe('succeeded');

    // the changed rows of each refreshed source (the whole set of one the city replaces whole), as the mirror serves them
    const whole = (key: string) => getSource(key).refresh === 'whole_replace';
    const published = new Map<string, number>();
    for (const key of REFRESHED) {
      const file = path.join(whole(key) ? wholeDir : changesDir, OUTPUT_FILES[key]);
      expect(existsSync(file)).toBe(true);
      published.set(key, publishSyntheticRefresh(mirror, getSource(key), { [OUTPUT_FILES[key]]: readFileSync(file, 'utf8') }, 1_800_000_000));
    }
    const complaints = readFileSync(path.join(wholeDir, OUTPUT_FILES.dob_complaints), 'utf8').split('\n').slice(1);
    expect(complaints.some((line) => /^\d*[A-Z]/.test(line))).toBe(true);

    const runs = new Map<string, IngestRunRow>();
    for (const key of REFRESHED) {
      const { runId } = await enqueueIngest(queue, pool, { source: key, input: { kind: 'download' }, trigger: 'test', observedOn: REFRESH_AS_OF });
      runs.set(key, await finished(runId));
    }
    const rejected = await pool.query(`SELECT source, reason, raw FROM rejected_rows WHERE run_id = ANY($1::uuid[])`, [[...runs.values()].map((run) => run.id)]);
    // only 311 requests the city wrote without a BBL (a blank is left out of a SODA row) are set aside
    for (const row of rejected.rows) {
      expect(row).toMatchObject({ source: 'nyc311', reason: expect.stringMatching(/^no_bbl/) });
      expect(Object.keys(JSON.parse(row.raw as string) as object)).not.toContain('bbl');
    }
    const rejectedBy = (key: string) => rejected.rows.filter((row) => row.source === key).length;
    for (const key of REFRESHED) {
      const run = runs.get(key) as IngestRunRow;
      expect({ key, status: run.status, error: run.error }).toEqual({ key, status: 'succeeded', error: null });
      if (whole(key)) {
        expect({ key, ...run.counts }).toMatchObject({ key, read: published.get(key), quarantined: rejectedBy(key), layout: 'current' });
        for (const part of getSource(key).parts) expect(mirror.requests.some((url) => url.startsWith(`/api/views/${part.datasetId}/rows.csv`))).toBe(true);
      } else {
        expect({ key, ...run.counts }).toMatchObject({ key, read: published.get(key), quarantined: rejectedBy(key), layout: expect.stringMatching(/^soda(\+soda)*$/), unknown_fields: {}, followed_columns: [] });
        for (const part of getSource(key).parts) expect(mirror.requests.some((url) => url.startsWith(`/resource/${part.datasetId}.json?`))).toBe(true);
      }
    }
    const events_ = (key: string) => (runs.get(key)?.counts.events ?? {}) as { inserted: number; updated: number; status_changes: number };
    expect(REFRESHED.reduce((sum, key) => sum + events_(key).status_changes, 0)).toBeGreaterThan(0);
    expect(REFRESHED.reduce((sum, key) => sum + events_(key).inserted, 0)).toBeGreaterThan(0);
    // only the set replaced whole was read as an export: every other row came as SODA JSON
    expect(new Set(mirror.requests.filter((url) => url.includes('/rows.csv')).map((url) => url.split('/')[3]))).toEqual(new Set([getSource('dob_complaints').parts[0].datasetId]));
  }, 600_000);
});
