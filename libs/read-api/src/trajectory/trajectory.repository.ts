import { Inject, Injectable } from '@nestjs/common';
import type { ReadPool } from '@bhis/db';
import type { CursorPosition } from '../shared/cursor';
import { READ_POOL } from '../shared/tokens';

export interface TrajectoryRow {
  as_of: string;
  scorer_id: string;
  total_score: number;
  health_score: number;
  grade: string;
  /** JSON text: {component key: score}. */
  components: string;
}

const COLUMNS = `h.as_of::text AS as_of, h.scorer_id, h.total_score, h.health_score, h.grade, h.components::text AS components`;

/** Oldest first in primary-key order (bbl, as_of, scorer_id); the building row tells an unknown BBL apart. */
const FIRST_PAGE = {
  name: 'read_api_trajectory_first',
  text: `SELECT p.* FROM buildings b LEFT JOIN LATERAL (
           SELECT ${COLUMNS} FROM score_history h WHERE h.bbl = $1::bpchar ORDER BY h.as_of, h.scorer_id LIMIT $2::int
         ) p ON true WHERE b.bbl = $1::bpchar`,
};

const NEXT_PAGE = {
  name: 'read_api_trajectory_next',
  text: `SELECT p.* FROM buildings b LEFT JOIN LATERAL (
           SELECT ${COLUMNS} FROM score_history h
            WHERE h.bbl = $1::bpchar AND (h.as_of, h.scorer_id) > ($3::date, $4::text)
            ORDER BY h.as_of, h.scorer_id LIMIT $2::int
         ) p ON true WHERE b.bbl = $1::bpchar`,
};

export type TrajectoryPage = { found: false } | { found: true; rows: TrajectoryRow[]; hasMore: boolean };

@Injectable()
export class TrajectoryRepository {
  constructor(@Inject(READ_POOL) private readonly pool: () => ReadPool) {}

  async page(bbl: string, position: CursorPosition | null, limit: number): Promise<TrajectoryPage> {
    const statement = position ? { ...NEXT_PAGE, values: [bbl, limit + 1, position[0], position[1]] } : { ...FIRST_PAGE, values: [bbl, limit + 1] };
    const { rows } = await this.pool().query<TrajectoryRow | Record<keyof TrajectoryRow, null>>(statement);
    if (rows.length === 0) return { found: false };
    const points = rows.filter((row): row is TrajectoryRow => row.as_of !== null);
    return { found: true, rows: points.slice(0, limit), hasMore: points.length > limit };
  }
}
