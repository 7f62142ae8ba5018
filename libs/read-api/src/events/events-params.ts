import { ApiError } from '@bhis/envelope';
import { CATEGORIES, EVENT_STATUSES, SEVERITIES } from '@bhis/domain';
import { SOURCES } from '@bhis/sources';
import { parseIsoDate, parseLimit, parseVocabularyList, rejectControlCharacters } from '../shared/query-params';
import type { EventsQueryDto } from './events-query.dto';

const SOURCE_KEYS = SOURCES.map((source) => source.key);

export interface EventFilters {
  sources: string[] | null;
  categories: string[] | null;
  severities: string[] | null;
  /** Left out (not null) when not asked for, so the filters of cursors issued before it keep their fingerprint. */
  statuses?: string[];
  since: string | null;
  until: string | null;
}

export interface EventsParams {
  filters: EventFilters;
  limit: number;
  cursor: string | null;
}

export function parseEventsParams(query: EventsQueryDto): EventsParams {
  rejectControlCharacters(query);
  const since = parseIsoDate('since', query.since) ?? null;
  const until = parseIsoDate('until', query.until) ?? null;
  if (since !== null && until !== null && since > until) {
    throw new ApiError('invalid_request', `"since" (${since}) must not be after "until" (${until}).`);
  }
  const lower = (v: string) => v.toLowerCase();
  return {
    filters: {
      sources: parseVocabularyList('source', query.source, SOURCE_KEYS, lower) ?? null,
      categories: parseVocabularyList('category', query.category, CATEGORIES, lower) ?? null,
      severities: parseVocabularyList('severity', query.severity, SEVERITIES, lower) ?? null,
      statuses: parseVocabularyList('status', query.status, EVENT_STATUSES, lower),
      since,
      until,
    },
    limit: parseLimit(query.limit),
    cursor: query.cursor ?? null,
  };
}
