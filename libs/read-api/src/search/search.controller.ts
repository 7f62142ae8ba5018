import { Controller, Get, Inject, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { WrittenAnswer } from '@bhis/api-platform';
import type { AppConfig } from '@bhis/config';
import { baseUrl, CONFIG, RequireScope, NEXT_PAGE_HEADERS } from '@bhis/api-platform';
import { SearchEnvelopeDto } from '../dto/search.dto';
import { ApiErrorResponses, ApiKeyAuth } from '@bhis/api-platform';
import { CursorCodec } from '../shared/cursor';
import { cursorHolder } from '../shared/cursor-holder';
import { cacheable } from '../shared/json-response';
import { selfLink } from '../shared/self-link';
import { parseSearchParams } from './search-params';
import { SearchQueryDto } from './search-query.dto';
import { SearchRepository } from './search.repository';
import { API_BASE_PATH, apiPath } from '@bhis/envelope';

const ENDPOINT = 'search';

@ApiTags('buildings')
@ApiKeyAuth()
@Controller(apiPath('/buildings'))
export class SearchController {
  constructor(
    private readonly search: SearchRepository,
    private readonly cursors: CursorCodec,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('search')
  @RequireScope('buildings:read')
  @ApiOperation({
    summary: 'Search buildings',
    description:
      'At least one filter (address, borough, zipcode, grade, owner, building_class, min_score, max_score). ' +
      'Scored buildings only. A pasted postal address is searched without its city, state and ZIP Code. An address without a house number ' +
      '(`lexington`) lists the buildings of the streets starting with it, in street order by default, and needs a word of at least 3 letters or digits that is not a ' +
      'direction or street type (`Q A` is refused). With `owner`, each result also names its landlord portfolio (`portfolio_id`, `_links.portfolio`; null when the ' +
      'building has no current registration). Cursor pagination: pass `pagination.next_cursor` as `cursor` with the same filters and sort. Scope `buildings:read`.',
  })
  @ApiOkResponse({ type: SearchEnvelopeDto, headers: NEXT_PAGE_HEADERS })
  @ApiResponse({ status: 304, description: 'Not modified (the If-None-Match ETag is current).' })
  @ApiErrorResponses('invalid_request')
  async find(@Query() query: SearchQueryDto, @Req() req: Request): Promise<WrittenAnswer> {
    const params = parseSearchParams(query);
    const filtersKey = JSON.stringify(params.filters);
    const position = params.cursor === null ? null : this.cursors.decode(ENDPOINT, cursorHolder(req), filtersKey, params.cursor, [params.filters.sort === 'address' ? 'string' : 'int', 'bbl']);
    const { rows, hasMore } = await this.search.page(params.filters, position, params.limit);
    const base = baseUrl(req, this.config.PUBLIC_BASE_URL);
    // an owner search leads on to who is behind the owner of record: the landlord portfolio
    const portfolios = params.filters.owner === null ? null : await this.search.portfolioIds(rows.map((row) => row.bbl));
    const buildings = rows.map((row) => ({
      bbl: row.bbl,
      address: row.address,
      borough: row.borough,
      zipcode: row.zipcode,
      residential_units: row.residential_units,
      owner_name: row.owner_name,
      total_score: row.total_score,
      grade: row.grade,
      label: row.label,
      ...(portfolios === null ? {} : { portfolio_id: portfolios.get(row.bbl) ?? null }),
      _links: {
        self: `${base}${API_BASE_PATH}/buildings/${row.bbl}`,
        ...(portfolios?.has(row.bbl) ? { portfolio: `${base}${API_BASE_PATH}/portfolios/${portfolios.get(row.bbl)}` } : {}),
      },
    }));
    const last = rows[rows.length - 1];
    const nextCursor = hasMore && last ? this.cursors.encode(ENDPOINT, cursorHolder(req), filtersKey, [last.sort_key, last.bbl]) : null;
    return cacheable({
      data: JSON.stringify({ buildings }),
      pagination: { limit: params.limit, has_more: hasMore, next_cursor: nextCursor },
      links: { self: selfLink(base, req) },
    });
  }
}
