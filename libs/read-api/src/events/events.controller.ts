import { Controller, Get, Inject, Param, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { WrittenAnswer } from '@bhis/api-platform';
import type { AppConfig } from '@bhis/config';
import { attributesText, jsonbText, readRecord } from '@bhis/db';
import { baseUrl, CONFIG, RequireScope, NEXT_PAGE_HEADERS } from '@bhis/api-platform';
import { API_BASE_PATH, ApiError, apiPath } from '@bhis/envelope';
import { quoteInput } from '@bhis/domain';
import { EventEnvelopeDto, EventsEnvelopeDto } from '../dto/event.dto';
import { ApiErrorResponses, ApiKeyAuth } from '@bhis/api-platform';
import { CursorCodec, CursorPosition } from '../shared/cursor';
import { cursorHolder } from '../shared/cursor-holder';
import { cacheable, digestOf, withMember } from '../shared/json-response';
import { parsePathBbl } from '../shared/path-bbl';
import { selfLink } from '../shared/self-link';
import { rejectUnknownParams } from '../shared/query-params';
import { EventFilters, parseEventsParams } from './events-params';
import { EventsPageCache, RenderedEventsPage } from './events-page-cache';
import { EventsQueryDto } from './events-query.dto';
import { EventRow, EventsRepository } from './events.repository';
import { EVENTS_SCANNED_PER_PAGE } from './events.query';
import { sourceUrl } from './source-url';

/** `attributes.building_id` as `->>` printed it. */
function buildingIdText(id: unknown): string | null {
  if (id === undefined || id === null) return null;
  return typeof id === 'object' ? jsonbText(id) : String(id);
}

const ENDPOINT = 'events';

/** Event ids are bigint (at most 19 digits); 18 keeps every accepted id in range. */
const EVENT_ID = /^\d{1,18}$/;

function eventJson(bbl: string, row: EventRow): string {
  const recorded = row.record ? readRecord(row.source, row.record) : null;
  const attributes = attributesText(row.attributes, recorded?.attributes ?? null, row.duplicate_of_hpd_complaint);
  const hpdBuildingId = recorded && row.hpd_building_id === null ? buildingIdText(recorded.attributes['building_id']) : row.hpd_building_id;
  const head = JSON.stringify({
    id: row.id,
    source: row.source,
    source_record_id: row.source_record_id,
    category: row.category,
    severity: row.severity,
    event_type: row.event_type,
    status: row.status,
    occurred_on: row.occurred_on,
    closed_on: row.closed_on,
    description: row.description ?? recorded?.description ?? null,
    source_url: sourceUrl({ source: row.source, bbl, hpdBuildingId }),
  });
  return withMember(head, 'attributes', attributes);
}

@ApiTags('events')
@ApiKeyAuth()
@Controller(apiPath('/buildings'))
export class EventsController {
  constructor(
    private readonly events: EventsRepository,
    private readonly pages: EventsPageCache,
    private readonly cursors: CursorCodec,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  @Get(':bbl/events')
  @RequireScope('events:read')
  @ApiOperation({
    summary: "A building's event history",
    description:
      'Public-record events (violations, complaints, 311 calls, permits, litigation, liens...) newest first, undated events last. ' +
      'Cursor pagination: pass `pagination.next_cursor` as `cursor` with the same filters (or follow `_links.next`). A request filtered by source, ' +
      `category, severity or status reads at most ${EVENTS_SCANNED_PER_PAGE} events: its page may hold fewer than \`limit\`, even none, ` +
      'with `has_more` true; follow `next_cursor` until `has_more` is false. Scope `events:read`.',
  })
  @ApiParam({ name: 'bbl', description: '10-digit BBL.', example: '1000010001' })
  @ApiOkResponse({ type: EventsEnvelopeDto, headers: NEXT_PAGE_HEADERS })
  @ApiResponse({ status: 304, description: 'Not modified (the If-None-Match ETag is current).' })
  @ApiErrorResponses('invalid_bbl', 'invalid_request', 'building_not_found')
  async list(@Param('bbl') rawBbl: string, @Query() query: EventsQueryDto, @Req() req: Request): Promise<WrittenAnswer> {
    const bbl = parsePathBbl(rawBbl);
    const params = parseEventsParams(query);
    const filtersKey = JSON.stringify([bbl, params.filters]);
    const position = params.cursor === null ? null : this.cursors.decode(ENDPOINT, cursorHolder(req), filtersKey, params.cursor, ['date?', 'digits']);
    const page = await this.pages.get(JSON.stringify([filtersKey, position, params.limit]), () =>
      this.render(bbl, params.filters, position, params.limit),
    );
    if (!page) throw new ApiError('building_not_found', `No building with BBL ${bbl} in the data set.`);
    return cacheable({
      data: page.data,
      dataDigest: page.dataDigest,
      pagination: { limit: params.limit, has_more: page.hasMore, next_cursor: page.nextPosition ? this.cursors.encode(ENDPOINT, cursorHolder(req), filtersKey, page.nextPosition) : null },
      links: { self: selfLink(baseUrl(req, this.config.PUBLIC_BASE_URL), req), building: `${baseUrl(req, this.config.PUBLIC_BASE_URL)}${API_BASE_PATH}/buildings/${bbl}` },
    });
  }

  @Get(':bbl/events/:id')
  @RequireScope('events:read')
  @ApiOperation({
    summary: 'One event of a building',
    description:
      'The event with this id, as in the events list: the ids in the list and in the explanation (`include=explanation`, ' +
      '`event_ids`) are fetched here. An id the building does not have (another building\'s included) is 404 `event_not_found`. ' +
      'Scope `events:read`.',
  })
  @ApiParam({ name: 'bbl', description: '10-digit BBL.', example: '1000010001' })
  @ApiParam({ name: 'id', description: 'The event id (digits).', example: '184467' })
  @ApiOkResponse({ type: EventEnvelopeDto })
  @ApiResponse({ status: 304, description: 'Not modified (the If-None-Match ETag is current).' })
  @ApiErrorResponses('invalid_bbl', 'invalid_request', 'building_not_found', 'event_not_found')
  async one(@Param('bbl') rawBbl: string, @Param('id') rawId: string, @Query() query: Record<string, unknown>, @Req() req: Request): Promise<WrittenAnswer> {
    const bbl = parsePathBbl(rawBbl);
    rejectUnknownParams(query, []);
    if (!EVENT_ID.test(rawId)) {
      throw new ApiError('invalid_request', `An event id is a whole number of 1 to 18 digits (got "${quoteInput(rawId)}").`);
    }
    const id = rawId.replace(/^0+(?=\d)/, '');
    const event = await this.events.one(bbl, id);
    if (!event.found) throw new ApiError('building_not_found', `No building with BBL ${bbl} in the data set.`);
    if (!event.row) throw new ApiError('event_not_found', `Building ${bbl} has no event ${id}.`);
    const building = `${baseUrl(req, this.config.PUBLIC_BASE_URL)}${API_BASE_PATH}/buildings/${bbl}`;
    return cacheable({
      data: eventJson(bbl, event.row),
      pagination: null,
      links: { self: `${building}/events/${id}`, events: `${building}/events`, building },
    });
  }

  /** One page read and rendered; null when the building is not in the data set. */
  private async render(bbl: string, filters: EventFilters, position: CursorPosition | null, limit: number): Promise<RenderedEventsPage | null> {
    const page = await this.events.page(bbl, filters, position, limit);
    if (!page.found) return null;
    const data = `{"bbl":"${bbl}","events":[${page.rows.map((row) => eventJson(bbl, row)).join(',')}]}`;
    return {
      data,
      dataDigest: digestOf(data),
      hasMore: page.next !== null,
      // the position, not the cursor: a cursor is signed for the key each page is served to
      nextPosition: page.next,
    };
  }
}
