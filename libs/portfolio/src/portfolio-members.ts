import { ApiError } from '@bhis/envelope';
import { assertBblCount } from './bbl-list';

/** Landlord portfolio ids as the rebuild writes them (libs/landlords: `pf_` and a registration id). */
const PORTFOLIO_ID = /^pf_[0-9]{1,10}$/;

export interface Queryable {
  query<R extends object>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
}

/**
 * The buildings of a current landlord portfolio, in BBL order: 404 `portfolio_not_found` for an id no
 * current portfolio has (a malformed one included), 400 `too_many_bbls` past the limit of a BBL list.
 */
export async function portfolioBbls(db: Queryable, id: string): Promise<string[]> {
  const notFound = () => new ApiError('portfolio_not_found', `No portfolio ${id.slice(0, 40)}: portfolio ids follow the current registrations (look one up by building).`);
  if (!PORTFOLIO_ID.test(id)) throw notFound();
  const { rows } = await db.query<{ bbl: string }>(`SELECT bbl FROM building_portfolios WHERE portfolio_id = $1 ORDER BY bbl`, [id]);
  if (rows.length === 0) throw notFound();
  assertBblCount(rows.length);
  return rows.map((r) => r.bbl);
}

/** Exactly one of `bbls` and `portfolio_id`. */
export function requireOneTarget(body: { bbls?: unknown; portfolio_id?: unknown }): void {
  const sent = [body.bbls, body.portfolio_id].filter((v) => v !== undefined).length;
  if (sent !== 1) throw new ApiError('invalid_request', 'Send either "bbls" or "portfolio_id", not both and not neither.');
}
