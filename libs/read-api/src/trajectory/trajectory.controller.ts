import { Controller, Get, Inject, Param, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { WrittenAnswer } from '@bhis/api-platform';
import type { AppConfig } from '@bhis/config';
import { baseUrl, CONFIG, RequireScope, NEXT_PAGE_HEADERS } from '@bhis/api-platform';
import { API_BASE_PATH, ApiError, apiPath } from '@bhis/envelope';
import { TrajectoryEnvelopeDto } from '../dto/trajectory.dto';
import { ApiErrorResponses, ApiKeyAuth } from '@bhis/api-platform';
import { CursorCodec } from '../shared/cursor';
import { cursorHolder } from '../shared/cursor-holder';
import { cacheable, withMember } from '../shared/json-response';
import { parsePathBbl } from '../shared/path-bbl';
import { parseLimit } from '../shared/query-params';
import { selfLink } from '../shared/self-link';
import { TrajectoryQueryDto } from './trajectory-query.dto';
import { TrajectoryRepository } from './trajectory.repository';

const ENDPOINT = 'trajectory';

@ApiTags('buildings')
@ApiKeyAuth()
@Controller(apiPath('/buildings'))
export class TrajectoryController {
  constructor(
    private readonly trajectory: TrajectoryRepository,
    private readonly cursors: CursorCodec,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  @Get(':bbl/trajectory')
  @RequireScope('buildings:read')
  @ApiOperation({
    summary: "A building's score history",
    description: 'One point per scoring run date and scorer version, oldest first. Cursor pagination. Scope `buildings:read`.',
  })
  @ApiParam({ name: 'bbl', description: '10-digit BBL.', example: '1000010001' })
  @ApiOkResponse({ type: TrajectoryEnvelopeDto, headers: NEXT_PAGE_HEADERS })
  @ApiResponse({ status: 304, description: 'Not modified (the If-None-Match ETag is current).' })
  @ApiErrorResponses('invalid_bbl', 'invalid_request', 'building_not_found')
  async points(@Param('bbl') rawBbl: string, @Query() query: TrajectoryQueryDto, @Req() req: Request): Promise<WrittenAnswer> {
    const bbl = parsePathBbl(rawBbl);
    const limit = parseLimit(query.limit);
    const position = query.cursor === undefined ? null : this.cursors.decode(ENDPOINT, cursorHolder(req), bbl, query.cursor, ['date', 'string']);
    const page = await this.trajectory.page(bbl, position, limit);
    if (!page.found) throw new ApiError('building_not_found', `No building with BBL ${bbl} in the data set.`);
    const points = page.rows.map((row) =>
      withMember(
        JSON.stringify({ as_of: row.as_of, scorer_id: row.scorer_id, total_score: row.total_score, health_score: row.health_score, grade: row.grade }),
        'components',
        row.components,
      ),
    );
    const last = page.rows[page.rows.length - 1];
    const base = baseUrl(req, this.config.PUBLIC_BASE_URL);
    return cacheable({
      data: `{"bbl":"${bbl}","points":[${points.join(',')}]}`,
      pagination: { limit, has_more: page.hasMore, next_cursor: page.hasMore && last ? this.cursors.encode(ENDPOINT, cursorHolder(req), bbl, [last.as_of, last.scorer_id]) : null },
      links: { self: selfLink(base, req), building: `${base}${API_BASE_PATH}/buildings/${bbl}` },
    });
  }
}
