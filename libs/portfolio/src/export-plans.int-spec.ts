import { Pool } from 'pg';
import { createTestDatabase, seedAddressCity, tableReads, TestDatabase } from '@bhis/testing';
import { buildExportQuery } from './export/export-query';
import { seedBuildings } from './testing/seed-buildings';

const CITY = 100_000;

/** An export filtered by address reads its matches, never the city (EXPLAIN ANALYZE on a real Postgres, not timings). */
describe('query plans of filtered exports (real Postgres)', () => {
  let db: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 2 });
    await seedBuildings(pool, [{ bbl: '1000010001', score: { total: 50, grade: 'C' } }]);
    await seedAddressCity(pool, CITY, '1000010001');
    await pool.query('ANALYZE');
  }, 120_000);

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  it('refuses an address no index can narrow, which would read the city twice (count, then stream)', async () => {
    for (const address of ['QX', 'Q A', 'avenue x']) {
      expect(() => buildExportQuery({ address })).toThrow(expect.objectContaining({ code: 'invalid_request', message: expect.stringMatching(/cannot be matched by an index/) }));
    }
    // what one of them would read
    const vague = buildExportQuery({ address: 'zephyr' });
    vague.values = ['%Q A%'];
    expect((await tableReads(pool, vague, 'buildings')).rowsExamined).toBeGreaterThan(CITY * 0.3);
  });

  it.each(['zephyr', 'zephyr st', 'w 45 zephyr st'])('reads the matches of "%s", not the city', async (address) => {
    const reads = await tableReads(pool, buildExportQuery({ address }), 'buildings');
    expect(reads.scans).not.toContain('Seq Scan');
    expect(reads.rowsExamined).toBeLessThan(100);
  });
});
