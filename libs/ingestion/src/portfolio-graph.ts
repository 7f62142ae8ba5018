import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { copyRowsOn, inTransaction } from '@bhis/db';
import { PortfolioGraph, type Portfolio } from '@bhis/landlords';
import { followPortfolios } from '@bhis/webhooks';

/** Sources whose load changes the portfolios: the registrations and their contacts. */
export const PORTFOLIO_SOURCES: ReadonlySet<string> = new Set(['hpd_registrations', 'hpd_registration_contacts']);

/** Rows read per FETCH: a city's 800,000 contacts are read in pages, never held as query results at once. */
const PAGE_ROWS = 20_000;

async function eachRow<R extends QueryResultRow>(client: PoolClient, sql: string, onRow: (row: R) => void): Promise<void> {
  await client.query(`DECLARE portfolio_rows NO SCROLL CURSOR FOR ${sql}`);
  for (;;) {
    const { rows } = await client.query<R>(`FETCH ${PAGE_ROWS} FROM portfolio_rows`);
    for (const row of rows) onRow(row);
    if (rows.length < PAGE_ROWS) break;
  }
  await client.query('CLOSE portfolio_rows');
}

export interface PortfolioRebuild {
  portfolios: number;
  /** portfolios of two or more buildings */
  shared: number;
  buildings: number;
  cautioned: number;
  /** monitors that follow a portfolio, their buildings set to its new ones */
  monitors: number;
  seconds: number;
}

/**
 * Rebuilds every landlord portfolio from the current registrations and contacts (libs/landlords), in
 * one transaction with the buildings of the monitors that follow a portfolio: readers see the previous
 * portfolios until it commits, and a failure keeps them.
 */
export async function rebuildPortfolios(pool: Pool): Promise<PortfolioRebuild> {
  const started = Date.now();
  return inTransaction(pool, async (client) => {
    const graph = new PortfolioGraph();
    await eachRow<{ registration_id: number; bbl: string }>(client, `SELECT registration_id, bbl FROM hpd_registrations WHERE vanished_on IS NULL`, (r) =>
      graph.addRegistration({ registrationId: r.registration_id, bbl: r.bbl }),
    );
    await eachRow<{ registration_id: number; contact_type: string | null; name: string | null; business_address: string | null }>(
      client,
      `SELECT registration_id, contact_type, name, business_address FROM hpd_registration_contacts WHERE vanished_on IS NULL`,
      (r) => graph.addContact({ registrationId: r.registration_id, contactType: r.contact_type, name: r.name, businessAddress: r.business_address }),
    );
    const portfolios = graph.portfolios();
    await client.query('DELETE FROM building_portfolios');
    await client.query('DELETE FROM owner_portfolios');
    await copyRowsOn(client, 'owner_portfolios (id, buildings, registrations, links, caution)', portfolioRows(portfolios));
    const buildings = await copyRowsOn(client, 'building_portfolios (bbl, portfolio_id)', membershipRows(portfolios));
    const monitors = await followPortfolios(client);
    return {
      portfolios: portfolios.length,
      shared: portfolios.filter((p) => p.bbls.length > 1).length,
      buildings,
      cautioned: portfolios.filter((p) => p.caution !== null).length,
      monitors,
      seconds: (Date.now() - started) / 1000,
    };
  });
}

function* portfolioRows(portfolios: readonly Portfolio[]): Generator<unknown[]> {
  for (const p of portfolios) {
    const links = p.links.map((l) => ({ kind: l.kind, key: l.key, shown: l.shown, registration_ids: l.registrationIds }));
    yield [p.id, p.bbls.length, p.registrationIds.length, JSON.stringify(links), p.caution];
  }
}

function* membershipRows(portfolios: readonly Portfolio[]): Generator<unknown[]> {
  for (const p of portfolios) for (const bbl of p.bbls) yield [bbl, p.id];
}
