import { ApiError } from '@bhis/envelope';
import { deliveryLine, GRADES, narrowingAddressWords, normalizeAddress, parseBorough, quoteInput } from '@bhis/domain';
import { parseInteger, parseLimit, parseVocabularyList, rejectControlCharacters } from '../shared/query-params';
import { addressForm } from './address-form';
import type { SearchQueryDto } from './search-query.dto';

export const SEARCH_SORTS = ['relevance', 'total_score', '-total_score', 'address'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

export const SEARCH_FILTERS = ['address', 'borough', 'zipcode', 'grade', 'owner', 'building_class', 'min_score', 'max_score'] as const;

/** The search, normalized: equal searches have equal filters (they fingerprint cursors). */
export interface SearchFilters {
  address: string | null;
  borough: number | null;
  zipcode: string | null;
  grades: string[] | null;
  /** Upper case. */
  owner: string | null;
  /** Upper case. */
  buildingClass: string | null;
  minScore: number | null;
  maxScore: number | null;
  sort: SearchSort;
}

export interface SearchParams {
  filters: SearchFilters;
  limit: number;
  cursor: string | null;
}

/** The refusal of a street query that an index cannot narrow (it would read a large share of the city). */
export const ADDRESS_TOO_VAGUE = (raw: string) =>
  `"address" cannot be searched by an index (got "${quoteInput(raw)}"): start with a house number, or name the street by a word of at least 3 letters or digits other than a direction or street type (e.g. "w 45 st", "ocean av").`;

function invalid(message: string): ApiError {
  return new ApiError('invalid_request', message);
}

export function parseSearchParams(query: SearchQueryDto): SearchParams {
  rejectControlCharacters(query);
  if (!SEARCH_FILTERS.some((name) => query[name] !== undefined)) {
    throw invalid(`At least one filter is required: ${SEARCH_FILTERS.join(', ')}.`);
  }
  let address: string | null = null;
  if (query.address !== undefined) {
    // a pasted postal address is searched by its delivery line (no city, state or ZIP Code)
    address = normalizeAddress(deliveryLine(query.address.slice(0, 200)));
    if (address.length < 2) throw invalid(`"address" must contain at least 2 letters or digits (got "${quoteInput(query.address)}").`);
    if (addressForm(address) === 'street' && narrowingAddressWords(address).length === 0) throw invalid(ADDRESS_TOO_VAGUE(query.address));
  }
  let borough: number | null = null;
  if (query.borough !== undefined) {
    borough = parseBorough(query.borough.slice(0, 40));
    if (borough === null) throw invalid(`"borough" must be 1-5 or a borough name (got "${quoteInput(query.borough)}").`);
  }
  if (query.zipcode !== undefined && !/^\d{5}$/.test(query.zipcode)) {
    throw invalid(`"zipcode" must be 5 digits (got "${quoteInput(query.zipcode)}").`);
  }
  const owner = query.owner?.trim().toUpperCase();
  if (owner !== undefined && (owner.length < 3 || owner.length > 100)) {
    throw invalid(`"owner" must be 3 to 100 characters (got "${quoteInput(query.owner)}").`);
  }
  const buildingClass = query.building_class?.trim().toUpperCase();
  if (buildingClass !== undefined && !/^[A-Z][0-9A-Z]?$/.test(buildingClass)) {
    throw invalid(`"building_class" must be a class prefix: a letter, optionally followed by one character (got "${quoteInput(query.building_class)}").`);
  }
  const minScore = parseInteger('min_score', query.min_score, 0, 100) ?? null;
  const maxScore = parseInteger('max_score', query.max_score, 0, 100) ?? null;
  if (minScore !== null && maxScore !== null && minScore > maxScore) {
    throw invalid(`"min_score" (${minScore}) must not be greater than "max_score" (${maxScore}).`);
  }
  // a street without house number lists its buildings in street order (the order its index reads)
  const sort = (query.sort ?? (address ? (addressForm(address) === 'street' ? 'address' : 'relevance') : '-total_score')) as SearchSort;
  if (!SEARCH_SORTS.includes(sort)) throw invalid(`"sort" must be one of ${SEARCH_SORTS.join(', ')} (got "${quoteInput(query.sort)}").`);
  if (sort === 'relevance' && !address) throw invalid('"sort=relevance" needs an "address" to rank by.');
  return {
    filters: {
      address,
      borough,
      zipcode: query.zipcode ?? null,
      grades: parseVocabularyList('grade', query.grade, GRADES, (v) => v.toUpperCase()) ?? null,
      owner: owner ?? null,
      buildingClass: buildingClass ?? null,
      minScore,
      maxScore,
      sort,
    },
    limit: parseLimit(query.limit),
    cursor: query.cursor ?? null,
  };
}
