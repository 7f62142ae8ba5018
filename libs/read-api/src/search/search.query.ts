import { escapeLike, StatementValues } from '../shared/statement';
import type { CursorPosition } from '../shared/cursor';
import type { SearchFilters } from './search-params';
import { addressForm } from './address-form';

/**
 * How closely the rest of the address must match when the house number does (pg_trgm word similarity).
 * The default of `pg_trgm.word_similarity_threshold`, which the operator `<%` that
 * buildings_house_street_idx answers tests: the index finds the candidates, the explicit test keeps the
 * match to this value whatever that setting.
 */
export const STREET_SIMILARITY = 0.6;

/**
 * The house number of a normalized address (its first word, when a street follows): the first column of
 * buildings_house_street_idx (migration 1763730000000). Equal to `109` exactly when the address is
 * `LIKE '109 %'`.
 */
export const HOUSE_NUMBER_OF_ADDRESS = `substring(b.address_search, '^([^ ]+) ')`;

/**
 * Owner matches read and sorted in full, at most: a pattern matching more is common enough that the
 * page is found sooner by walking the sort's index and testing each building's owner (then at most
 * about limit x buildings / OWNER_CANDIDATES rows). Balances the two reads at the whole city.
 */
export const OWNER_CANDIDATES = 3_000;

/**
 * The street of a normalized address, its house number left out: the expression of
 * buildings_street_idx (migration 1763720000001), which lists the buildings of a street in order. In
 * byte order (collation C), so that one index serves the prefix match and the page's position
 * `(street, bbl) > (...)`, which it seeks to.
 */
export const STREET_OF_ADDRESS = `(regexp_replace(b.address_search, '^[0-9][0-9A-Z-]* ', '') COLLATE "C")`;

function addressMatchSql(v: StatementValues, address: string, prefix: string, query: () => string): string {
  const words = address.split(' ');
  const form = addressForm(address);
  if (form === 'prefix') return `b.address_search LIKE ${prefix}`;
  if (form === 'house_number') {
    // the house number sought in the index, the street matched in its entries (buildings_house_street_idx)
    const house = v.add(words[0], '::text');
    return `${HOUSE_NUMBER_OF_ADDRESS} = ${house} AND ${query()} <% b.address_search AND word_similarity(${query()}, b.address_search) >= ${STREET_SIMILARITY}`;
  }
  return `${STREET_OF_ADDRESS} LIKE ${prefix}`;
}

/**
 * Relevance of an address match: addresses that start with the query first, then by trigram
 * similarity (an integer, so cursors carry it exactly).
 */
function relevanceSql(prefix: string, address: () => string): string {
  return `((CASE WHEN b.address_search LIKE ${prefix} THEN 2000 ELSE 0 END) + floor(similarity(b.address_search, ${address()}) * 1000))::int`;
}

interface SortShape {
  /** The sort key selected as `sort_key`. */
  key: string;
  order: string;
  /** Rows after the cursor position ($k: sort key, $b: bbl). */
  after(k: string, b: string): string;
}

function sortShape(filters: SearchFilters, relevance: string | null): SortShape {
  if (filters.sort === 'address' && filters.address && addressForm(filters.address) === 'street') {
    // the order of buildings_street_idx (street, bbl): a street-only query reads one range of it
    return {
      key: STREET_OF_ADDRESS,
      order: `${STREET_OF_ADDRESS}, b.bbl`,
      after: (k, b) => `(${STREET_OF_ADDRESS}, b.bbl) > (${k}, ${b})`,
    };
  }
  switch (filters.sort) {
    case 'relevance':
      return {
        key: relevance as string,
        order: `sort_key DESC, s.bbl`,
        after: (k, b) => `(${relevance} < ${k} OR (${relevance} = ${k} AND s.bbl > ${b}))`,
      };
    case '-total_score':
      // building_scores_total_idx (total_score DESC, bbl) in index order
      return {
        key: 's.total_score::int',
        order: 's.total_score DESC, s.bbl',
        after: (k, b) => `s.total_score <= ${k} AND (s.total_score < ${k} OR s.bbl > ${b})`,
      };
    case 'total_score':
      // the same index read backwards: ties in descending BBL order
      return {
        key: 's.total_score::int',
        order: 's.total_score, s.bbl DESC',
        after: (k, b) => `s.total_score >= ${k} AND (s.total_score > ${k} OR s.bbl < ${b})`,
      };
    case 'address':
      // byte order of the normalized address: the order of buildings_address_prefix_idx (text_pattern_ops)
      return {
        key: 'b.address_search',
        order: 'b.address_search USING ~<~, s.bbl',
        after: (k, b) => `b.address_search ~>=~ ${k} AND (b.address_search ~>~ ${k} OR s.bbl > ${b})`,
      };
  }
}

function ownerPattern(owner: string): string {
  return `%${escapeLike(owner)}%`;
}

/**
 * The buildings whose owner matches, up to OWNER_CANDIDATES + 1, through the owner's trigram index
 * (buildings_owner_trgm_idx). Materialized: planned on its own, the match is read through the index
 * whatever the planner estimates of the pattern (a name whose words are common is estimated to match
 * thousands of buildings and, in the search statement, made the planner walk the score index and test
 * each building's owner: 200,000 rows for a name of 50 buildings at the whole city).
 */
export function ownerCandidatesStatement(owner: string) {
  return {
    text: `WITH owned AS MATERIALIZED (SELECT b.bbl FROM buildings b WHERE upper(b.owner_name) LIKE $1::text) SELECT bbl FROM owned LIMIT $2::int`,
    values: [ownerPattern(owner), OWNER_CANDIDATES + 1],
  };
}

/** Whether a search is narrowed by its owner first (its address, when given, is narrowed by the address's own index). */
export function narrowedByOwner(filters: SearchFilters): filters is SearchFilters & { owner: string } {
  return filters.owner !== null && filters.address === null;
}

const COLUMNS = `s.bbl, b.address, b.borough, b.zipcode, b.residential_units, b.owner_name, s.total_score, s.grade, s.label`;
const FROM = 'building_scores s JOIN buildings b ON b.bbl = s.bbl';

/**
 * One statement per search page. Only scored buildings are searched (every building of the data set
 * is scored by the daily run; a building added since appears after the next run).
 *
 * A grade filter sorted by score reads one ordered range of building_scores_grade_total_idx
 * (grade, total_score DESC, bbl) per grade and merges them: walking the score index and filtering by
 * grade would read most of the table for the grades at the other end of the scale.
 *
 * `owned`: the buildings of the owner filter's matches when they are few (ownerCandidatesStatement).
 *
 * Not a named statement on purpose: a cached generic plan cannot see how selective the values are
 * (a borough, a common owner word) and picks plans up to 100x slower than the per-value plan; planning
 * a search costs a millisecond or less (the trigram operator of a house number and street is priced from
 * the column's statistics: 0.7 ms at the whole city, docs/benchmarks.md).
 */
export function searchStatement(filters: SearchFilters, position: CursorPosition | null, limit: number, owned: readonly string[] | null = null) {
  const v = new StatementValues();
  const where: string[] = [];
  let relevance: string | null = null;
  if (filters.address) {
    const text = filters.address;
    // added where the statement uses it (a street-only query in street order does not)
    let added: string | null = null;
    const address = () => (added ??= v.add(text, '::text'));
    const prefix = v.add(`${escapeLike(filters.address)}%`, '::text');
    where.push(addressMatchSql(v, filters.address, prefix, address));
    if (filters.sort === 'relevance') relevance = relevanceSql(prefix, address);
  }
  if (filters.borough !== null) where.push(`b.borough = ${v.add(filters.borough, '::smallint')}`);
  if (filters.zipcode !== null) where.push(`b.zipcode = ${v.add(filters.zipcode, '::text')}`);
  if (owned !== null && filters.owner !== null) {
    // the owner's matches, read first (ownerCandidatesStatement), looked up by key, then sorted; their
    // owner tested again (in a form no index answers: the trigram index was read for them already)
    where.push(`b.bbl = ANY(${v.add(owned, '::bpchar[]')}) AND strpos(upper(b.owner_name), ${v.add(filters.owner, '::text')}) > 0`);
  } else if (filters.owner !== null) {
    where.push(`upper(b.owner_name) LIKE ${v.add(ownerPattern(filters.owner), '::text')}`);
  }
  if (filters.buildingClass !== null) where.push(`b.building_class LIKE ${v.add(`${escapeLike(filters.buildingClass)}%`, '::text')}`);
  if (filters.minScore !== null) where.push(`s.total_score >= ${v.add(filters.minScore, '::smallint')}`);
  if (filters.maxScore !== null) where.push(`s.total_score <= ${v.add(filters.maxScore, '::smallint')}`);
  const sort = sortShape(filters, relevance);
  if (position) {
    const keyCast = filters.sort === 'address' ? '::text' : '::int';
    where.push(sort.after(v.add(position[0], keyCast), v.add(position[1], '::bpchar')));
  }
  const limitParam = v.add(limit, '::int');
  const select = (conditions: string[]) =>
    `SELECT ${COLUMNS}, ${sort.key} AS sort_key FROM ${FROM} WHERE ${conditions.join(' AND ')} ORDER BY ${sort.order} LIMIT ${limitParam}`;

  let text: string;
  const byScore = filters.sort === 'total_score' || filters.sort === '-total_score';
  if (filters.grades !== null && byScore) {
    const branches = filters.grades.map((grade) => `(${select([...where, `s.grade = ${v.add(grade, '::bpchar')}`])})`);
    text =
      branches.length === 1
        ? branches[0]
        : `SELECT * FROM (${branches.join(' UNION ALL ')}) u ORDER BY ${sort.order.replace(/\b[sb]\./g, 'u.')} LIMIT ${limitParam}`;
  } else {
    if (filters.grades !== null) where.push(`s.grade = ANY(${v.add(filters.grades, '::bpchar[]')})`);
    text = select(where);
  }
  return { text, values: v.values };
}
