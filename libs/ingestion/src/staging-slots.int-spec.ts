import { createReadStream, statSync } from 'node:fs';
import { Pool } from 'pg';
import { createTestDatabase, TestDatabase } from '@bhis/testing';
import { createRun, syncSourceCatalog } from '@bhis/runs';
import { loadSource, MERGE_LOCK } from './load-source';
import { StagingSlots } from './staging-slots';
import { fixtureFiles, seedUniverseFor } from './testing/fixtures';

describe('staging slots', () => {
  let db: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 8 });
    await syncSourceCatalog(pool);
  });

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  it('a load waiting for its turn to merge gives its slot to the next file, which stages meanwhile', async () => {
    const files = fixtureFiles().filter((f) => ['hpd_violations', 'dob_violations'].includes(f.source.key));
    const [first, second] = [files.find((f) => f.source.key === 'hpd_violations'), files.find((f) => f.source.key === 'dob_violations')];
    if (!first || !second) throw new Error('fixtures missing');
    for (const f of [first, second]) await seedUniverseFor(pool, f.source, f.file);
    const slots = new StagingSlots(1);
    // another merge holds the lock: both loads must get to the point of merging with one slot between them
    const holder = await pool.connect();
    await holder.query('SELECT pg_advisory_lock($1)', [MERGE_LOCK]);
    const merging = new Set<string>();
    const load = async ({ file, source }: { file: string; source: (typeof first)['source'] }) => {
      const runId = await createRun(pool, { source: source.key, trigger: 'test', input: file });
      return loadSource(pool, source, { kind: 'csv', stream: createReadStream(file), totalBytes: statSync(file).size }, {
        runId,
        observedOn: '2026-11-01',
        stagingSlots: slots,
        onProgress: (progress) => void (progress.phase === 'merging' && merging.add(source.key)),
      });
    };
    let loads: Promise<unknown> | undefined;
    try {
      loads = Promise.all([load(first), load(second)]);
      const deadline = Date.now() + 30_000;
      while (merging.size < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect([...merging].sort()).toEqual(['dob_violations', 'hpd_violations']);
    } finally {
      await holder.query('SELECT pg_advisory_unlock($1)', [MERGE_LOCK]);
      holder.release();
    }
    const [a, b] = (await loads) as { read: number; loaded: number }[];
    expect(a?.loaded).toBeGreaterThan(0);
    expect(b?.loaded).toBeGreaterThan(0);
    const stored = await pool.query<{ source: string; n: number }>(`SELECT source, count(*)::int AS n FROM events GROUP BY source ORDER BY source`);
    expect(stored.rows.map((r) => r.source)).toEqual(['dob_violations', 'hpd_violations']);
  });
});
