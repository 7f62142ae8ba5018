import { Controller, Get, Inject, Param, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { WrittenAnswer } from '@bhis/api-platform';
import type { AppConfig } from '@bhis/config';
import { ApiErrorResponses, ApiKeyAuth, baseUrl, CONFIG, RequireScope, NEXT_PAGE_HEADERS } from '@bhis/api-platform';
import { GRADES } from '@bhis/domain';
import { API_BASE_PATH, ApiError, apiPath } from '@bhis/envelope';
import { PortfolioEnvelopeDto } from '../dto/portfolio.dto';
import { CursorCodec } from '../shared/cursor';
import { cursorHolder } from '../shared/cursor-holder';
import { cacheable } from '../shared/json-response';
import { parsePathBbl } from '../shared/path-bbl';
import { parseLimit } from '../shared/query-params';
import { selfLink } from '../shared/self-link';
import { PortfolioQueryDto } from './portfolio-query.dto';
import { type PortfolioBuildingRow, type PortfolioHead, PortfolioRepository } from './portfolio.repository';

const ENDPOINT = 'portfolio';
const PORTFOLIO_ID = /^pf_\d{1,10}$/;

function building(row: PortfolioBuildingRow): Record<string, unknown> {
  return { bbl: row.bbl, address: row.address, units: row.units, grade: row.grade?.trim() ?? null, total_score: row.total_score };
}

/** Landlord portfolios: the buildings of one owner, found through the HPD registrations (libs/landlords). */
@ApiTags('portfolios')
@ApiKeyAuth()
@Controller()
export class PortfoliosController {
  constructor(
    private readonly portfolios: PortfolioRepository,
    private readonly cursors: CursorCodec,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  @Get(apiPath('/buildings/:bbl/portfolio'))
  @RequireScope('buildings:read')
  @ApiOperation({
    summary: "The portfolio of a building's owner",
    description:
      'The buildings held by the same owner: current HPD registrations joined when they share an owner company, an owner or head officer (name and ZIP code) or an owner office; agents and managing agents never join two owners. With the grades and scores of its buildings, its worst buildings and a `caution` when it is too large to be one owner. Cursor pagination of its buildings. Scope `buildings:read`.',
  })
  @ApiParam({ name: 'bbl', description: '10-digit BBL.', example: '1000010001' })
  @ApiOkResponse({ type: PortfolioEnvelopeDto, headers: NEXT_PAGE_HEADERS })
  @ApiResponse({ status: 304, description: 'Not modified (the If-None-Match ETag is current).' })
  @ApiErrorResponses('invalid_bbl', 'invalid_request', 'building_not_found', 'not_found')
  async ofBuilding(@Param('bbl') rawBbl: string, @Query() query: PortfolioQueryDto, @Req() req: Request): Promise<WrittenAnswer> {
    const bbl = parsePathBbl(rawBbl);
    const found = await this.portfolios.byBbl(bbl);
    if (!found.building) throw new ApiError('building_not_found', `No building with BBL ${bbl} in the data set.`);
    if (!found.portfolio) throw new ApiError('not_found', `Building ${bbl} has no current HPD registration, so no owner portfolio.`);
    return this.send(found.portfolio, query, req);
  }

  @Get(apiPath('/portfolios/:id'))
  @RequireScope('buildings:read')
  @ApiOperation({ summary: 'A landlord portfolio by id', description: 'As `/buildings/{bbl}/portfolio`, by the portfolio id. Scope `buildings:read`.' })
  @ApiParam({ name: 'id', description: 'A portfolio id (`pf_` and digits).', example: 'pf_331931' })
  @ApiOkResponse({ type: PortfolioEnvelopeDto, headers: NEXT_PAGE_HEADERS })
  @ApiResponse({ status: 304, description: 'Not modified (the If-None-Match ETag is current).' })
  @ApiErrorResponses('invalid_request', 'not_found')
  async byId(@Param('id') id: string, @Query() query: PortfolioQueryDto, @Req() req: Request): Promise<WrittenAnswer> {
    if (!PORTFOLIO_ID.test(id)) throw new ApiError('invalid_request', 'A portfolio id is "pf_" followed by digits, e.g. pf_331931.');
    const portfolio = await this.portfolios.byId(id);
    if (!portfolio) throw new ApiError('not_found', `No portfolio ${id}: portfolio ids follow the current registrations (look one up by building).`);
    return this.send(portfolio, query, req);
  }

  private async send(head: PortfolioHead, query: PortfolioQueryDto, req: Request): Promise<WrittenAnswer> {
    const limit = parseLimit(query.limit);
    const after = query.cursor === undefined ? null : (this.cursors.decode(ENDPOINT, cursorHolder(req), head.id, query.cursor, ['bbl'])[0] as string);
    const [summary, page] = await Promise.all([this.portfolios.summary(head.id), this.portfolios.page(head.id, after, limit)]);
    const grades: Record<string, number> = Object.fromEntries([...GRADES, 'ungraded'].map((g) => [g, 0]));
    let units = 0;
    for (const row of summary.grades) {
      grades[row.grade?.trim() ?? 'ungraded'] = row.buildings;
      units += row.units;
    }
    const data = {
      id: head.id,
      building_count: head.buildings,
      registration_count: head.registrations,
      units,
      grade_distribution: grades,
      worst_buildings: summary.worst.map(building),
      links: JSON.parse(head.links) as unknown,
      caution: head.caution,
      built_at: new Date(head.built_at).toISOString(),
      buildings: page.rows.map(building),
    };
    const last = page.rows[page.rows.length - 1];
    const base = baseUrl(req, this.config.PUBLIC_BASE_URL);
    return cacheable({
      data: JSON.stringify(data),
      pagination: { limit, has_more: page.hasMore, next_cursor: page.hasMore && last ? this.cursors.encode(ENDPOINT, cursorHolder(req), head.id, [last.bbl]) : null },
      links: { self: selfLink(base, req), portfolio: `${base}${API_BASE_PATH}/portfolios/${head.id}` },
    });
  }
}
