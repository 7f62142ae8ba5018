import { createReadStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { Pool } from 'pg';
import { eventAttributes } from '@bhis/db';
import { QUEUES } from '@bhis/queue';
import { enqueueIngest, getRun, syncSourceCatalog } from '@bhis/runs';
import { csvToSodaRows, getSource, parseSource, type PublishedColumn } from '@bhis/sources';
import { mirrorWorkerEnv, SocrataMirror } from '@bhis/synth';
import { createTestDatabase, NodeProcess, poll, repoRoot, TestDatabase, testRedisPrefix } from '@bhis/testing';

const SOURCE = getSource('hpd_litigations');
const PART = SOURCE.parts[0];
const DATASET = PART.datasetId as string;
/** Real rows of the export (../shared/fixtures) and the data set's published view metadata (libs/sources/test-fixtures/soda-metadata). */
const CSV = path.join(repoRoot(), '../shared/fixtures/nyc-open-data/hpd_litigations.csv');
const METADATA = JSON.parse(readFileSync(path.join(repoRoot(), 'libs/sources/test-fixtures/soda-metadata', `${DATASET}.json`), 'utf8')) as { columns: (PublishedColumn & { position: number })[] };

/**
 * The built ingest worker refreshing a source from a mirror of Open Data on loopback
 * (SOCRATA_ALLOW_PRIVATE_HOST), which serves the data set's real metadata, its real CSV export and
 * JSON rows named by that metadata: a first load, a refresh, and a column the city renamed, followed
 * when one of its names survives and a loud failure naming it when neither does.
 */
describe('a refresh checked against a local Socrata mirror', () => {
  let db: TestDatabase;
  let pool: Pool;
  let worker: NodeProcess;
  let connection: IORedis;
  let queue: Queue;
  const root = mkdtempSync(path.join(tmpdir(), 'bhis-mirror-'));
  const mirror = new SocrataMirror(root);
  const prefix = testRedisPrefix();
  let rowsUpdatedAt = 1_790_000_000;
  const rows = csvToSodaRows(PART, readFileSync(CSV, 'utf8'), METADATA.columns, { isoDates: true });

  const publish = (columns = METADATA.columns, sodaRows: Record<string, unknown>[] = rows) => {
    rowsUpdatedAt += 3600;
    mirror.publish(DATASET, { metadata: { id: DATASET, name: SOURCE.name, rowsUpdatedAt, columns }, rows: sodaRows });
  };

  /** Queues a download of the source and waits for its run to end. */
  const refresh = async () => {
    const queued = await enqueueIngest(queue, pool, { source: SOURCE.key, input: { kind: 'download' }, trigger: 'test', observedOn: '2026-11-21', force: true });
    return poll('the run to end', async () => {
      const run = await getRun(pool, queued.runId);
      return run && ['succeeded', 'failed', 'skipped'].includes(run.status) ? run : null;
    }, 60_000);
  };

  /** A row without its judgement field (the city renamed the column). */
  const withoutJudgement = (row: Record<string, string>): Record<string, string> => Object.fromEntries(Object.entries(row).filter(([field]) => field !== 'casejudgement'));

  /** The stored litigations: open judgement per record id. */
  const judgements = async (): Promise<Record<string, unknown>> => {
    const { rows: events } = await pool.query(`SELECT source_record_id, attributes, record FROM events WHERE source = 'hpd_litigations' ORDER BY source_record_id`);
    return Object.fromEntries(events.map((row) => [row.source_record_id, eventAttributes('hpd_litigations', row.attributes, row.record)['open_judgement']]));
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 4 });
    await syncSourceCatalog(pool);
    const bbls = new Set<string>();
    for await (const record of parseSource(SOURCE, createReadStream(CSV))) if (record.outcome.kind === 'ok') for (const event of record.outcome.events) bbls.add(event.bbl);
    await pool.query(
      `INSERT INTO buildings (bbl, borough, block, lot, address, residential_units)
       SELECT b, substr(b, 1, 1)::smallint, substr(b, 2, 5)::int, substr(b, 7, 4)::int, 'TEST ' || b, 10 FROM unnest($1::text[]) b`,
      [[...bbls]],
    );
    mirror.publish(DATASET, { csv: readFileSync(CSV, 'utf8') });
    publish();
    await mirror.start();
    connection = new IORedis({ maxRetriesPerRequest: null });
    queue = new Queue(QUEUES.ingest, { connection, prefix });
    worker = NodeProcess.app('ingest', mirrorWorkerEnv(mirror, db.url, prefix));
    await worker.waitFor('ingest worker started');
  }, 120_000);

  afterAll(async () => {
    await worker?.kill9();
    await queue?.close();
    connection?.disconnect();
    await mirror.stop();
    await pool?.end();
    await db?.drop();
    rmSync(root, { recursive: true, force: true });
  }, 60_000);

  it('loads the export first, then refreshes from JSON rows named by the metadata', async () => {
    const first = await refresh();
    expect(first.status).toBe('succeeded');
    expect(first.counts).toMatchObject({ read: 10, quarantined: 0, layout: 'current' });
    expect(mirror.requests.some((url) => url.startsWith(`/api/views/${DATASET}/rows.csv`))).toBe(true);
    const loaded = first.counts.loaded as number;

    // the city closes three cases and enters a judgement on them
    const changed: Record<string, string>[] = rows.slice(0, 3).map((row) => ({ ...row, casestatus: 'CLOSED', casejudgement: 'YES' }));
    publish(METADATA.columns, changed);
    const second = await refresh();
    expect(second.status).toBe('succeeded');
    expect(second.counts).toMatchObject({ read: 3, quarantined: 0, layout: 'soda', unknown_fields: {}, followed_columns: [] });
    expect(mirror.requests.some((url) => url.startsWith(`/resource/${DATASET}.json?`))).toBe(true);
    const stored = await judgements();
    expect(Object.keys(stored)).toHaveLength(loaded);
    for (const row of changed) expect(stored[row['litigationid'] as string]).toBe(true);
  });

  it('follows a column the city renamed (a new display name and a `_1` field)', async () => {
    const columns = METADATA.columns.map((column) => (column.fieldName === 'casejudgement' ? { ...column, name: 'Case Judgement', fieldName: 'casejudgement_1' } : column));
    const changed: Record<string, string>[] = rows.slice(0, 3).map((row) => ({ ...withoutJudgement(row), casejudgement_1: 'NO' }));
    publish(columns, changed);
    const run = await refresh();
    expect(run.status).toBe('succeeded');
    expect(run.counts.followed_columns).toEqual(['OpenJudgement -> field casejudgement_1 ("Case Judgement")']);
    const stored = await judgements();
    for (const row of changed) expect(stored[row['litigationid'] as string]).toBe(false);
  });

  it('fails loudly, naming the column, when neither of its names survives, and keeps the data', async () => {
    const before = await judgements();
    const columns = METADATA.columns.map((column) => (column.fieldName === 'casejudgement' ? { ...column, name: 'Judgment Entered', fieldName: 'judgment_entered' } : column));
    publish(columns, rows.slice(0, 3).map((row) => ({ ...withoutJudgement(row), judgment_entered: 'NO' })));
    const run = await refresh();
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/hpd_litigations \(main, data set 59kj-x8nc\).*"OpenJudgement" \(declared field casejudgement\) is not published.*"Judgment Entered" = judgment_entered/);
    expect(await judgements()).toEqual(before);
  });

  it('refuses the mirror without the setting: loopback is not a public address', async () => {
    const strict = NodeProcess.app('ingest', { DATABASE_URL: db.url, REDIS_PREFIX: `${prefix}-strict`, SOCRATA_BASE_URL: mirror.url, LOG_LEVEL: 'info' });
    const strictConnection = new IORedis({ maxRetriesPerRequest: null });
    const strictQueue = new Queue(QUEUES.ingest, { connection: strictConnection, prefix: `${prefix}-strict` });
    try {
      await strict.waitFor('ingest worker started');
      const { runId } = await enqueueIngest(strictQueue, pool, { source: SOURCE.key, input: { kind: 'download' }, trigger: 'test', observedOn: '2026-11-21', force: true });
      const run = await poll('the run to fail', async () => {
        const r = await getRun(pool, runId);
        return r?.status === 'failed' ? r : null;
      }, 60_000);
      expect(run.error).toMatch(/download refused: .*loopback address; downloads may only target public addresses/);
    } finally {
      await strict.kill9();
      await strictQueue.close();
      strictConnection.disconnect();
    }
  }, 90_000);
});
