import { Inject, Injectable } from '@nestjs/common';
import type { ReadPool } from '@bhis/db';
import { READ_POOL } from '../shared/tokens';

export interface PortfolioHead {
  id: string;
  buildings: number;
  registrations: number;
  /** JSON text: [{kind, key, shown, registration_ids}] */
  links: string;
  caution: string | null;
  built_at: string;
}

export interface PortfolioBuildingRow {
  bbl: string;
  address: string;
  units: number;
  grade: string | null;
  total_score: number | null;
}

export interface PortfolioSummaryRow {
  grade: string | null;
  buildings: number;
  units: number;
}

/** How many of a portfolio's highest-scored buildings its summary names. */
export const WORST_BUILDINGS = 5;

const HEAD = `p.id, p.buildings, p.registrations, p.links::text AS links, p.caution, p.built_at::text AS built_at`;
const BUILDING = `b.bbl, b.address, b.residential_units AS units, s.grade, s.total_score`;

const BY_ID = { name: 'read_api_portfolio_by_id', text: `SELECT ${HEAD} FROM owner_portfolios p WHERE p.id = $1` };
const BY_BBL = {
  name: 'read_api_portfolio_by_bbl',
  text: `SELECT ${HEAD} FROM building_portfolios bp JOIN owner_portfolios p ON p.id = bp.portfolio_id WHERE bp.bbl = $1::bpchar`,
};
const BUILDING_EXISTS = { name: 'read_api_portfolio_building', text: `SELECT 1 FROM buildings WHERE bbl = $1::bpchar` };
const SUMMARY = {
  name: 'read_api_portfolio_summary',
  text: `SELECT s.grade, count(*)::int AS buildings, sum(b.residential_units)::int AS units
           FROM building_portfolios bp JOIN buildings b ON b.bbl = bp.bbl LEFT JOIN building_scores s ON s.bbl = bp.bbl
          WHERE bp.portfolio_id = $1 GROUP BY s.grade`,
};
const WORST = {
  name: 'read_api_portfolio_worst',
  text: `SELECT ${BUILDING} FROM building_portfolios bp JOIN buildings b ON b.bbl = bp.bbl JOIN building_scores s ON s.bbl = bp.bbl
          WHERE bp.portfolio_id = $1 ORDER BY s.total_score DESC, b.bbl LIMIT ${WORST_BUILDINGS}`,
};
/** Buildings in BBL order, keyset after `$3` (the building_portfolios_portfolio_idx index). */
const PAGE = {
  name: 'read_api_portfolio_page',
  text: `SELECT ${BUILDING} FROM building_portfolios bp JOIN buildings b ON b.bbl = bp.bbl LEFT JOIN building_scores s ON s.bbl = bp.bbl
          WHERE bp.portfolio_id = $1 AND bp.bbl > $3::bpchar ORDER BY bp.bbl LIMIT $2::int`,
};

/** Landlord portfolios (owner_portfolios, building_portfolios) with their buildings' current scores. */
@Injectable()
export class PortfolioRepository {
  constructor(@Inject(READ_POOL) private readonly pool: () => ReadPool) {}

  async byId(id: string): Promise<PortfolioHead | null> {
    return (await this.pool().query<PortfolioHead>({ ...BY_ID, values: [id] })).rows[0] ?? null;
  }

  /** The portfolio of a building; `building: false` when the BBL is not a building of the data set. */
  async byBbl(bbl: string): Promise<{ building: boolean; portfolio: PortfolioHead | null }> {
    const found = (await this.pool().query<PortfolioHead>({ ...BY_BBL, values: [bbl] })).rows[0] ?? null;
    if (found) return { building: true, portfolio: found };
    return { building: ((await this.pool().query({ ...BUILDING_EXISTS, values: [bbl] })).rowCount ?? 0) > 0, portfolio: null };
  }

  async summary(id: string): Promise<{ grades: PortfolioSummaryRow[]; worst: PortfolioBuildingRow[] }> {
    const [grades, worst] = await Promise.all([
      this.pool().query<PortfolioSummaryRow>({ ...SUMMARY, values: [id] }),
      this.pool().query<PortfolioBuildingRow>({ ...WORST, values: [id] }),
    ]);
    return { grades: grades.rows, worst: worst.rows };
  }

  async page(id: string, after: string | null, limit: number): Promise<{ rows: PortfolioBuildingRow[]; hasMore: boolean }> {
    const { rows } = await this.pool().query<PortfolioBuildingRow>({ ...PAGE, values: [id, limit + 1, after ?? '0000000000'] });
    return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
  }
}
