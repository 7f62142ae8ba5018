import { Pool } from 'pg';
import { rebuildPortfolios, type PortfolioRebuild } from '@bhis/ingestion';
import { dropDatabase, recreateDatabase } from './database';

/** About the registrations and contacts of the whole city (HPD: ~200,000 registrations, ~800,000 contacts). */
export const CITY_REGISTRATIONS = 200_000;
/** Registrations per owner group: the portfolios of the seeded owners. */
const GROUP_SIZE = 4;
/** Management companies, each named as agent of 1 in 50 registrations: they must link nothing. */
const MANAGERS = 50;

export interface PortfolioGraphBench {
  registrations: number;
  contacts: number;
  seedSeconds: number;
  rebuild: PortfolioRebuild;
}

/**
 * Seeds `registrations` current registrations with four contacts each, shaped as the city's owner
 * networks are (an LLC per building at its own address, a head officer shared by GROUP_SIZE
 * registrations, an agent and a site manager of one of MANAGERS management companies), then times
 * the rebuild of the portfolios (libs/ingestion/src/portfolio-graph.ts), the step every load of the
 * registrations or contacts ends with. Names are letters (digits spelt as letters) so they normalize
 * as people and companies do.
 */
export async function measurePortfolioGraph(adminUrl: string, database: string, registrations: number): Promise<PortfolioGraphBench> {
  const url = await recreateDatabase(adminUrl, database);
  const pool = new Pool({ connectionString: url, max: 2 });
  try {
    const started = Date.now();
    await pool.query(
      `INSERT INTO hpd_registrations (registration_id, bbl)
       SELECT 100000 + i, ((i % 5) + 1)::text || lpad((i / 100 + 1)::text, 5, '0') || lpad((i % 100 + 1)::text, 4, '0')
         FROM generate_series(0, $1 - 1) AS i`,
      [registrations],
    );
    const letters = (expr: string) => `translate((${expr})::text, '0123456789', 'ABCDEFGHIJ')`;
    await pool.query(
      `INSERT INTO hpd_registration_contacts (contact_id, registration_id, contact_type, name, business_address)
       SELECT 4 * i + c.n, 100000 + i, c.type,
              CASE c.n WHEN 0 THEN 'BLDG ' || ${letters('i')} || ' LLC'
                       WHEN 1 THEN 'JOHN ' || ${letters(`i / ${GROUP_SIZE}`)}
                       WHEN 2 THEN 'MGMT ' || ${letters(`i % ${MANAGERS}`)} || ' CORP'
                       ELSE 'ANN ' || ${letters(`i % ${MANAGERS}`)} END,
              CASE c.n WHEN 0 THEN (i + 1)::text || ' MAIN STREET BRONX NY 10451'
                       WHEN 1 THEN (i / ${GROUP_SIZE} + 1)::text || ' COURT STREET BROOKLYN NY 11231'
                       ELSE (i % ${MANAGERS} + 1)::text || ' BROADWAY NEW YORK NY 10004' END
         FROM generate_series(0, $1 - 1) AS i
        CROSS JOIN (VALUES (0, 'CorporateOwner'), (1, 'HeadOfficer'), (2, 'Agent'), (3, 'SiteManager')) AS c(n, type)`,
      [registrations],
    );
    await pool.query('ANALYZE hpd_registrations, hpd_registration_contacts');
    const seedSeconds = (Date.now() - started) / 1000;
    const rebuild = await rebuildPortfolios(pool);
    const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM hpd_registration_contacts`);
    return { registrations, contacts: rows[0]?.n ?? 0, seedSeconds, rebuild };
  } finally {
    await pool.end();
    await dropDatabase(adminUrl, database);
  }
}
