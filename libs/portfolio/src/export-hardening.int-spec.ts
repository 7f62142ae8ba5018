import { connect, Socket } from 'node:net';
import { Pool } from 'pg';
import { createTestDatabase, TestDatabase, testRedisPrefix } from '@bhis/testing';
import { call, createKeys, PortfolioTestApi, startPortfolioApi } from './testing/portfolio-test-api';
import { seedComponents, writeDocuments } from './testing/seed-buildings';

const BUILDINGS = 10_000;

/** Buildings with long text cells, so a 10,000-row export is far larger than the socket buffers. */
async function seed(pool: Pool): Promise<void> {
  await pool.query(
    `INSERT INTO buildings (bbl, borough, block, lot, address, address_search, residential_units, owner_name)
     SELECT '1' || lpad((g + 1)::text, 5, '0') || '0001', 1, g + 1, 1,
            g || ' SLOW STREET ' || repeat('X', 200), g || ' SLOW STREET', 10, 'OWNER ' || repeat('Y', 200)
       FROM generate_series(0, ${BUILDINGS - 1}) g`,
  );
  await pool.query(`UPDATE buildings SET owner_name = '=HYPERLINK("http://evil.example","x")', address = '+1 TEST ST' WHERE bbl = '1000010001'`);
  await pool.query(
    `INSERT INTO building_scores (bbl, run_id, as_of, scorer_id, total_score, health_score, grade, label, components, flags, scores, counts, confidence)
     SELECT bbl, gen_random_uuid(), '2026-11-20', 'distress_v10_2', 50, 50, 'C', '-label', $1, '{}', '{}', '{}', '{}' FROM buildings`,
    [seedComponents(50, 'C')],
  );
  await writeDocuments(pool);
}

/** Sends an export request on a raw socket and never reads the answer. */
function stalledExport(url: string, key: string): Socket {
  const { port } = new URL(url);
  const body = JSON.stringify({ min_score: 0 });
  const socket = connect(Number(port), '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write(
    `POST /api/v1/export/csv HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  socket.pause();
  return socket;
}

describe('CSV export against slow clients, formula cells and filtered costs (real Postgres and Redis)', () => {
  let db: TestDatabase;
  let pool: Pool;
  let api: PortfolioTestApi;
  let key: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 2 });
    await seed(pool);
    api = await startPortfolioApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix(), RATE_LIMIT_LIVE_PER_MIN: '1000000', DATABASE_POOL_SIZE: '8' });
    [{ key }] = await createKeys(db.url, [{ name: 'export' }]);
  }, 120_000);

  afterAll(async () => {
    await api?.close();
    await pool?.end();
    await db?.drop();
  });

  it('neutralises cells that a spreadsheet would run as a formula', async () => {
    const res = await call(api.url, key, 'POST', '/api/v1/export/csv', { bbls: ['1000010001'] });
    expect(res.status).toBe(200);
    const row = res.text.split('\n')[1];
    expect(row).toContain(`'+1 TEST ST`);
    expect(row).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(row).toContain(`'-label`);
    expect(row).not.toMatch(/,=|,\+|,-label/);
  });

  it('charges a filtered export for the rows it returns, like the same BBL list', async () => {
    const res = await call(api.url, key, 'POST', '/api/v1/export/csv', { min_score: 0 });
    expect(res.status).toBe(200);
    expect(res.text.trim().split('\n')).toHaveLength(BUILDINGS + 1);
    expect(res.headers.get('x-ratelimit-cost')).toBe('100');
    const one = await call(api.url, key, 'POST', '/api/v1/export/csv', { address: '9999 SLOW STREET' });
    expect(one.headers.get('x-ratelimit-cost')).toBe('5');
  });

  it('survives twenty clients that stop reading for 75 s: the API keeps serving and no connection stays held', async () => {
    const sockets = Array.from({ length: 20 }, () => stalledExport(api.url, key));
    try {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      // while the exports stall, other requests still get a connection
      expect((await call(api.url, key, 'POST', '/api/v1/portfolio/analyze', { bbls: ['1000010001'] })).status).toBe(200);
      // past the 60 s idle-in-transaction timeout of the database
      await new Promise((resolve) => setTimeout(resolve, 73_000));
      const analyze = await call(api.url, key, 'POST', '/api/v1/portfolio/analyze', { bbls: ['1000010001', '1000020001'] });
      expect(analyze.status).toBe(200);
      const { rows } = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'bhis-api' AND state LIKE 'idle in transaction%'`,
      );
      expect(rows[0].n).toBe(0);
      // and a complete export still works
      const after = await call(api.url, key, 'POST', '/api/v1/export/csv', { min_score: 0 });
      expect(after.status).toBe(200);
      expect(after.text.trim().split('\n')).toHaveLength(BUILDINGS + 1);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  }, 120_000);
});
