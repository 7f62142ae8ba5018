import path from 'node:path';
import { Pool } from 'pg';
import { getSource } from '@bhis/sources';
import { createTestDatabase, TestDatabase } from '@bhis/testing';
import { IngestService } from './ingest-service';
import { refreshAllSources } from './refresh-all';
import { SocrataClient } from './socrata';
import { FakeDataset, FakeOpenData, LOCAL_DOWNLOADS } from './testing/fake-open-data';
import { publishedColumns, seedUniverseFor, SHARED_FIXTURES } from './testing/fixtures';
import { createRun, sourceStatuses, syncSourceCatalog } from '@bhis/runs';

const SOURCE = getSource('hpd_litigations');
const DATASET = SOURCE.parts[0].datasetId as string;
const FIXTURE = path.join(SHARED_FIXTURES, 'hpd_litigations.csv');

/** A source whose refresh fails says so, with the error and since when; the daily refresh tries it again unless retrying cannot help. */
describe('a failing source', () => {
  let db: TestDatabase;
  let pool: Pool;
  const openData = new FakeOpenData();
  const litigations: FakeDataset = { rowsUpdatedAt: 1_700_000_000, csvFile: FIXTURE, columns: publishedColumns(DATASET), sodaRows: [] };
  openData.datasets.set(DATASET, litigations);
  let service: IngestService;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 4 });
    await syncSourceCatalog(pool);
    await seedUniverseFor(pool, SOURCE, FIXTURE);
    await openData.start();
    service = new IngestService(pool, new SocrataClient({ baseUrl: openData.url, retries: 0, policy: LOCAL_DOWNLOADS }), { enforceMinimumRows: false });
  });

  afterAll(async () => {
    await openData.stop();
    await pool?.end();
    await db?.drop();
  });

  const status = async () => (await sourceStatuses(pool)).find((s) => s.key === SOURCE.key)!;
  const refresh = () => refreshAllSources(pool, service, { jobId: 'test', observedOn: '2026-11-24', sources: [SOURCE] });

  // the fixture's newest record is older than a monthly source's record allowance: said, but the source is ok
  const loadedState = { state: 'ok', records_behind: true, failing_since: null, last_error: null };

  it('is refreshed once loaded, and again when a refresh finds its data set unchanged', async () => {
    expect(await refresh()).toEqual({ hpd_litigations: 'succeeded' });
    const loaded = await status();
    expect(loaded).toMatchObject(loadedState);
    expect(await refresh()).toEqual({ hpd_litigations: 'skipped' });
    const checked = await status();
    expect(checked).toMatchObject(loadedState);
    expect(Date.parse(checked.last_refreshed_at!)).toBeGreaterThan(Date.parse(loaded.last_refreshed_at!));
  });

  it('shows failing with the error, its code and since when after a failure that may pass, and the daily refresh tries it again', async () => {
    litigations.rowsUpdatedAt += 3600;
    openData.failNext = 1_000;
    expect((await refresh()).hpd_litigations).toMatch(/^failed: /);
    const failing = await status();
    expect(failing).toMatchObject({ state: 'failing', status: 'failed', last_error: { code: 'load_failed', permanent: false } });
    expect(failing.last_error?.message).toMatch(/503[\s\S]*the daily refresh tries again/);
    const since = failing.failing_since;
    expect(since).not.toBeNull();
    // a second failure keeps the first one's date
    expect((await refresh()).hpd_litigations).toMatch(/^failed: /);
    expect((await status()).failing_since).toBe(since);
    openData.failNext = 0;
    expect(await refresh()).toEqual({ hpd_litigations: 'succeeded' });
    expect(await status()).toMatchObject({ ...loadedState, status: 'ok' });
  });

  it('waits for the operator after a permanent failure, and says what to do; the operator\'s successful run clears it', async () => {
    litigations.rowsUpdatedAt += 3600;
    openData.datasets.delete(DATASET); // the data set answers 404
    expect((await refresh()).hpd_litigations).toMatch(/^failed: /);
    const failing = await status();
    expect(failing).toMatchObject({ state: 'failing', last_error: { code: 'download_refused', permanent: true } });
    expect(failing.last_error?.message).toMatch(/404.*until an operator acts.*bhis ingest --source hpd_litigations --download/s);
    // the daily refresh leaves it alone: no new run, no request
    const requests = openData.requests.length;
    const runs = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ingest_runs`);
    expect((await refresh()).hpd_litigations).toMatch(/^waiting for the operator: .*404/);
    expect(openData.requests.length).toBe(requests);
    expect((await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ingest_runs`)).rows[0].n).toBe(runs.rows[0].n);
    // the operator fixes the cause and runs the download
    openData.datasets.set(DATASET, litigations);
    const runId = await createRun(pool, { source: SOURCE.key, trigger: 'cli', input: 'download' });
    await service.run({ runId, source: SOURCE.key, input: { kind: 'download' }, observedOn: '2026-11-24', lastAttempt: true });
    expect(await status()).toMatchObject(loadedState);
    expect((await refresh()).hpd_litigations).toBe('skipped');
  });
});
