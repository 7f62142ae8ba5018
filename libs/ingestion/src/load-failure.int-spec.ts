import { Pool } from 'pg';
import { getSource } from '@bhis/sources';
import { createTestDatabase, TestDatabase } from '@bhis/testing';
import { IngestService } from './ingest-service';
import { SocrataClient } from './socrata';
import { LOCAL_DOWNLOADS } from './testing/fake-open-data';
import { fixtureFiles, seedUniverseFor } from './testing/fixtures';
import { createRun, getRun, syncSourceCatalog } from '@bhis/runs';

describe('a load that fills the disk', () => {
  let db: TestDatabase;
  let pool: Pool;
  let service: IngestService;
  const fixture = (key: string) => fixtureFiles().find((f) => f.source.key === key) ?? (() => { throw new Error(`no ${key} fixture`); })();
  const loaded = fixture('hpd_litigations');
  const failing = fixture('hpd_vacate_orders');

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 8 });
    await syncSourceCatalog(pool);
    for (const { source, file } of [loaded, failing]) await seedUniverseFor(pool, getSource(source.key), file);
    service = new IngestService(pool, new SocrataClient({ baseUrl: 'http://127.0.0.1:1', policy: LOCAL_DOWNLOADS }));
  });

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  const run = async ({ source, file }: { source: { key: string }; file: string }) => {
    const runId = await createRun(pool, { source: source.key, trigger: 'test', input: file });
    const outcome = await service
      .run({ runId, source: source.key, input: { kind: 'file', path: file }, observedOn: '2026-11-01', lastAttempt: false })
      .then(() => null, (error: unknown) => error);
    return { runId, outcome };
  };
  const eventsOf = async (source: string) => (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE source = $1`, [source])).rows[0]?.n;

  it('fails the run with a plain message, keeps every source as it was, and loads once there is room', async () => {
    expect((await run(loaded)).outcome).toBeNull();
    const before = await eventsOf(loaded.source.key);
    expect(before).toBeGreaterThan(0);

    // what Postgres answers when it cannot extend a file, raised at the first event written
    await pool.query(`CREATE FUNCTION test_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'could not extend file "base/16384/16412.1": No space left on device' USING ERRCODE = 'disk_full'; END $$`);
    await pool.query(`CREATE TRIGGER test_disk_full BEFORE INSERT OR UPDATE ON events FOR EACH ROW EXECUTE FUNCTION test_disk_full()`);
    let failed: Awaited<ReturnType<typeof run>>;
    try {
      failed = await run(failing);
    } finally {
      await pool.query(`DROP TRIGGER test_disk_full ON events; DROP FUNCTION test_disk_full()`);
    }
    expect(failed.outcome).toBeInstanceOf(Error);
    const record = await getRun(pool, failed.runId);
    expect(record?.status).toBe('retrying');
    expect(record?.error).toMatch(/^Postgres ran out of disk space during the load \(SQLSTATE 53100: could not extend file/);
    expect(record?.error).toMatch(/still serves its previous data/);
    expect(await eventsOf(failing.source.key)).toBe(0);
    expect(await eventsOf(loaded.source.key)).toBe(before);
    const leftovers = await pool.query(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE 'ingest_stg_%'`);
    expect(leftovers.rows[0].n).toBe(0);

    expect((await run(failing)).outcome).toBeNull();
    expect(await eventsOf(failing.source.key)).toBeGreaterThan(0);
  });
});
