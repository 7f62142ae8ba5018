import type { PoolClient } from 'pg';
import type { ReadPool } from '@bhis/db';
import { narrowingAddressWords, normalizeAddress, parseBorough } from '@bhis/domain';
import { ApiError } from '@bhis/envelope';
import { partitionBbls, PORTFOLIO_BBL_LIMIT } from '../bbl-list';
import type { ExportRequestDto } from './export.dto';

export interface SqlQuery {
  text: string;
  values: unknown[];
}

/** What a BBL-list export will have no row for: the valid BBLs (read by `query`), the invalid and repeated entries (counted). */
export interface ExportMisses {
  query: SqlQuery;
  invalid: number;
  duplicates: number;
}

export interface ExportQuery extends SqlQuery {
  /** Only for an export of a BBL list. */
  misses?: ExportMisses;
}

/** At most this many not-found BBLs are named in `X-Export-Not-Found-Bbls` (about 1.1 KB); the count names them all. */
export const NAMED_MISSES = 100;

/** Headers that say which entries of a BBL list the file has no row for (read in the export's own snapshot). */
export async function exportMissHeaders(client: Pick<PoolClient, 'query'>, misses: ExportMisses): Promise<[string, string][]> {
  const { rows } = await client.query<{ bbl: string }>(misses.query.text, misses.query.values);
  return [
    ['X-Export-Not-Found', String(rows.length)],
    ['X-Export-Not-Found-Bbls', rows.slice(0, NAMED_MISSES).map((row) => row.bbl).join(',')],
    ['X-Export-Invalid', String(misses.invalid)],
    ['X-Export-Duplicates', String(misses.duplicates)],
  ];
}

/** The stored building document and its as-of date (the document does not carry it). */
const COLUMNS = `s.document, to_char(s.as_of, 'YYYY-MM-DD') AS as_of`;

/** A score row no run has written a document for ('{}') is not scored, as the read API treats it: never exported, never priced. */
const HAS_DOCUMENT = `s.document::text <> '{}'`;

const FILTERS = ['address', 'borough', 'zipcode', 'grade', 'owner', 'building_class', 'min_score', 'max_score'] as const;

function likeEscape(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The rows of an export: the requested BBLs in request order (invalid and unknown ones skipped, and
 * reported by `misses`), or the
 * buildings matching the search filters, worst first, at most 10,000.
 */
export function buildExportQuery(request: ExportRequestDto): ExportQuery {
  const used = FILTERS.filter((f) => request[f] !== undefined);
  if (request.bbls !== undefined) {
    if (used.length > 0) throw new ApiError('invalid_request', `Send either "bbls" or search filters, not both (got ${used.join(', ')}).`);
    const { valid, invalid, requested } = partitionBbls(request.bbls);
    return {
      text: `SELECT ${COLUMNS} FROM unnest($1::text[]) WITH ORDINALITY AS r(bbl, ord)
               JOIN building_scores s ON s.bbl = r.bbl::char(10)
              WHERE ${HAS_DOCUMENT}
              ORDER BY r.ord`,
      values: [valid],
      misses: {
        // not in the data set, or not scored yet: no row either way
        query: {
          text: `SELECT r.bbl FROM unnest($1::text[]) WITH ORDINALITY AS r(bbl, ord)
                  WHERE NOT EXISTS (SELECT 1 FROM building_scores s WHERE s.bbl = r.bbl::char(10) AND ${HAS_DOCUMENT})
                  ORDER BY r.ord`,
          values: [valid],
        },
        invalid: invalid.length,
        duplicates: request.bbls.length - requested,
      },
    };
  }
  if (used.length === 0) {
    throw new ApiError('invalid_request', `Send "bbls" or at least one search filter (${FILTERS.join(', ')}).`);
  }
  const where: string[] = [HAS_DOCUMENT];
  const values: unknown[] = [];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  if (request.address !== undefined) {
    const normalized = normalizeAddress(request.address);
    if (!normalized) throw new ApiError('invalid_request', '"address" has no letters or digits.');
    // a substring match through the trigram index: without a word that narrows it, the count and the
    // stream would each read a large share of the city
    if (narrowingAddressWords(normalized).length === 0) {
      throw new ApiError(
        'invalid_request',
        `"address" cannot be matched by an index (got "${request.address.slice(0, 40)}"): name a word of at least 3 letters or digits other than a direction or street type.`,
      );
    }
    where.push(`b.address_search LIKE ${param(`%${likeEscape(normalized)}%`)}`);
  }
  if (request.borough !== undefined) where.push(`b.borough = ${param(parseBorough(request.borough))}`);
  if (request.zipcode !== undefined) where.push(`b.zipcode = ${param(request.zipcode)}`);
  if (request.grade !== undefined) {
    const grades = (typeof request.grade === 'string' ? request.grade.split(',') : request.grade).map((g) => g.trim().toUpperCase());
    where.push(`s.grade = ANY (${param(grades)}::bpchar[])`);
  }
  if (request.owner !== undefined) where.push(`upper(b.owner_name) LIKE ${param(`%${likeEscape(request.owner.toUpperCase())}%`)}`);
  if (request.building_class !== undefined) where.push(`b.building_class LIKE ${param(`${likeEscape(request.building_class.toUpperCase())}%`)}`);
  if (request.min_score !== undefined) where.push(`s.total_score >= ${param(request.min_score)}`);
  if (request.max_score !== undefined) where.push(`s.total_score <= ${param(request.max_score)}`);
  return {
    text: `SELECT ${COLUMNS} FROM building_scores s JOIN buildings b ON b.bbl = s.bbl
            WHERE ${where.join(' AND ')}
            ORDER BY s.total_score DESC, s.bbl LIMIT ${PORTFOLIO_BBL_LIMIT}`,
    values,
  };
}

/** The number of rows an export query returns (at most 10,000), to price a filtered export before it runs. */
export async function countExportRows(pool: ReadPool, query: SqlQuery): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${query.text}) q`, query.values);
  return rows[0]?.n ?? 0;
}
