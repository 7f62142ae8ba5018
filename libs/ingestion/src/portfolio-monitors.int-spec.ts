import { Pool } from 'pg';
import { createApiKey, createDataSource } from '@bhis/db';
import { createTestDatabase, TestDatabase } from '@bhis/testing';
import { createMonitor, findMonitor, monitorBbls, SecretBox } from '@bhis/webhooks';
import { rebuildPortfolios } from './portfolio-graph';

const RIGAS = ['George Rigas', '400 COURT STREET BROOKLYN NY 11231'] as const;

/**
 * A monitor that follows a landlord portfolio, through real rebuilds after the registrations change:
 * its buildings are the portfolio's buildings of each rebuild.
 */
describe('monitors that follow a portfolio across rebuilds', () => {
  let db: TestDatabase;
  let pool: Pool;
  let apiKeyId: string;

  const register = async (registrationId: number, bbl: string, headOfficer: readonly [string, string]) => {
    await pool.query(`INSERT INTO hpd_registrations (registration_id, bbl) VALUES ($1, $2)`, [registrationId, bbl]);
    await pool.query(
      `INSERT INTO hpd_registration_contacts (contact_id, registration_id, contact_type, name, business_address)
       VALUES ($1 * 10, $1, 'CorporateOwner', $2, $3), ($1 * 10 + 1, $1, 'HeadOfficer', $4, $5)`,
      [registrationId, `${registrationId} LLC`, `${registrationId} MAIN STREET BRONX NY 10451`, headOfficer[0], headOfficer[1]],
    );
  };
  const bblsOf = async (id: string) => monitorBbls(pool, id, null, 100);

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 2 });
    const ds = createDataSource({ url: db.url, poolSize: 1 });
    await ds.initialize();
    apiKeyId = (await createApiKey(ds, { name: 'follower', kind: 'live' })).record.id;
    await ds.destroy();
  });

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  it("sets the monitor's buildings from each rebuild: a registration added, one lapsed, the id moving to the next registration", async () => {
    await register(331931, '3005120010', RIGAS);
    await register(331935, '3005120011', ['GEORGE RIGAS', '400 COURT ST BKLYN NY 11231']);
    await register(500001, '2001230001', ['ANN OTHER', '9 GRAND CONCOURSE BRONX NY 10451']);
    expect((await rebuildPortfolios(pool)).monitors).toBe(0);
    const { rows } = await pool.query<{ bbl: string }>(`SELECT bbl FROM building_portfolios WHERE portfolio_id = 'pf_331931' ORDER BY bbl`);
    const { monitor } = await createMonitor(
      pool,
      { apiKeyId, name: 'rigas', webhookUrl: 'https://93.184.215.14/hook', grades: null, includeUncertain: false, bbls: rows.map((r) => r.bbl), portfolioId: 'pf_331931' },
      SecretBox.development(),
    );
    expect(await bblsOf(monitor.id)).toEqual(['3005120010', '3005120011']);

    // a new building of the same head officer
    await register(331990, '3005120012', RIGAS);
    expect((await rebuildPortfolios(pool)).monitors).toBe(1);
    expect(await bblsOf(monitor.id)).toEqual(['3005120010', '3005120011', '3005120012']);
    expect((await findMonitor(pool, apiKeyId, monitor.id))?.bblCount).toBe(3);

    // the lowest registration lapses: the portfolio's id becomes pf_331935, and the monitor follows it
    await pool.query(`UPDATE hpd_registrations SET vanished_on = '2026-11-02' WHERE registration_id = 331931`);
    await pool.query(`UPDATE hpd_registration_contacts SET vanished_on = '2026-11-02' WHERE registration_id = 331931`);
    await rebuildPortfolios(pool);
    const moved = await findMonitor(pool, apiKeyId, monitor.id);
    expect([moved?.portfolioId, moved?.bblCount]).toEqual(['pf_331935', 2]);
    expect(await bblsOf(monitor.id)).toEqual(['3005120011', '3005120012']);
    // the unrelated owner's building never joins
    expect(await bblsOf(monitor.id)).not.toContain('2001230001');
  });
});
