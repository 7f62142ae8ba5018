import { Inject, Injectable } from '@nestjs/common';
import type { ReadPool } from '@bhis/db';
import type { CursorPosition } from '../shared/cursor';
import { READ_POOL } from '../shared/tokens';
import type { SearchFilters } from './search-params';
import { narrowedByOwner, OWNER_CANDIDATES, ownerCandidatesStatement, searchStatement } from './search.query';

export interface SearchRow {
  bbl: string;
  address: string;
  borough: number;
  zipcode: string | null;
  residential_units: number;
  owner_name: string | null;
  total_score: number;
  grade: string;
  label: string;
  sort_key: string | number;
}

@Injectable()
export class SearchRepository {
  constructor(@Inject(READ_POOL) private readonly pool: () => ReadPool) {}

  /** The landlord portfolio of each of the BBLs that has one (one lookup by primary key for the page). */
  async portfolioIds(bbls: readonly string[]): Promise<Map<string, string>> {
    if (bbls.length === 0) return new Map();
    const { rows } = await this.pool().query<{ bbl: string; portfolio_id: string }>(
      `SELECT bbl::text AS bbl, portfolio_id FROM building_portfolios WHERE bbl = ANY($1::char(10)[])`,
      [bbls],
    );
    return new Map(rows.map((r) => [r.bbl, r.portfolio_id]));
  }

  /**
   * The buildings of the owner filter's matches, when there are at most OWNER_CANDIDATES of them; null
   * when the search is not narrowed by owner, or the owner's pattern is common (the search statement
   * then walks the sort's index, which finds a page of a common owner within a few hundred rows).
   */
  private async ownerCandidates(filters: SearchFilters): Promise<string[] | null> {
    if (!narrowedByOwner(filters)) return null;
    const { rows } = await this.pool().query<{ bbl: string }>(ownerCandidatesStatement(filters.owner));
    return rows.length > OWNER_CANDIDATES ? null : rows.map((r) => r.bbl);
  }

  /** Up to `limit` rows after the position (one more is read to tell whether another page exists). */
  async page(filters: SearchFilters, position: CursorPosition | null, limit: number): Promise<{ rows: SearchRow[]; hasMore: boolean }> {
    const { rows } = await this.pool().query<SearchRow>(searchStatement(filters, position, limit + 1, await this.ownerCandidates(filters)));
    return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
  }
}
