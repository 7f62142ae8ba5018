import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Req } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { WrittenAnswer } from '@bhis/api-platform';
import type { AppConfig } from '@bhis/config';
import { CONFIG, RequireScope, Idempotent } from '@bhis/api-platform';
import { ApiError, apiPath } from '@bhis/envelope';
import { BatchEnvelopeDto, BatchRequestDto } from '../dto/batch.dto';
import { BuildingEnvelopeDto } from '../dto/building.dto';
import { ApiErrorResponses, ApiKeyAuth } from '@bhis/api-platform';
import { parsePathBbl } from '../shared/path-bbl';
import { uncached } from '../shared/json-response';
import { rejectUnknownParams, singleParam } from '../shared/query-params';
import { parseBatchRequest } from './batch-request';
import { BuildingRepository } from './building.repository';
import { buildingAnswer } from './building-response';

const INCLUDES = ['explanation'] as const;

@ApiTags('buildings')
@ApiKeyAuth()
@Controller(apiPath('/buildings'))
export class BuildingsController {
  constructor(
    private readonly buildings: BuildingRepository,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('batch')
  @Idempotent()
  @HttpCode(200)
  @RequireScope('buildings:read')
  @ApiOperation({
    summary: 'Look up to 500 buildings at once',
    description:
      'One result per distinct entry, in request order; `building` is the same object as the single lookup. ' +
      '`summary` counts them, names the entries sent more than once (`duplicates`, answered once) and the valid BBLs ' +
      'not in the data set (`not_found_bbls`). ' +
      'Costs 1 rate-limit unit per 50 BBLs (at least 1). Scope `buildings:read`.',
  })
  @ApiBody({ type: BatchRequestDto })
  @ApiOkResponse({ type: BatchEnvelopeDto })
  @ApiErrorResponses('invalid_request', 'too_many_bbls', 'payload_too_large')
  async batch(@Body() body: unknown, @Query() query: Record<string, unknown>): Promise<WrittenAnswer> {
    rejectUnknownParams(query, []);
    const request = parseBatchRequest(body);
    const documents = await this.buildings.findMany(request.valid);
    const valid = new Set(request.valid);
    const counts = { requested: request.entries.length, found: 0, not_found: 0, invalid: 0 };
    const notFound: string[] = [];
    const results = request.entries.map((entry) => {
      const document = documents.get(entry);
      const status = document !== undefined ? 'found' : valid.has(entry) ? 'not_found' : 'invalid';
      counts[status] += 1;
      if (status === 'not_found') notFound.push(entry);
      return `{"bbl":${JSON.stringify(entry)},"status":"${status}","building":${document ?? 'null'}}`;
    });
    // v1's counts first, then what was collapsed and missed
    const summary = { ...counts, received: request.received, duplicates: request.duplicates, not_found_bbls: notFound };
    return uncached({ data: `{"results":[${results.join(',')}],"summary":${JSON.stringify(summary)}}`, pagination: null, links: {} });
  }

  @Get(':bbl')
  @RequireScope('buildings:read')
  @ApiOperation({
    summary: 'One building report',
    description:
      'Facts, scores, counts and confidence of a building. A building in the data set that has not been scored yet ' +
      'is served with `scores`, `counts` and `confidence` null. Conditional requests: send the `ETag` back in ' +
      '`If-None-Match` for a 304. Scope `buildings:read`.',
  })
  @ApiParam({ name: 'bbl', description: '10 digits: borough 1-5, block (5 digits, not 0), lot (4 digits).', example: '1000010001' })
  @ApiQuery({ name: 'include', required: false, enum: INCLUDES, description: '`explanation` adds the per-component contributions behind the score.' })
  @ApiHeader({ name: 'If-None-Match', required: false, description: 'An ETag from an earlier response.' })
  @ApiOkResponse({ type: BuildingEnvelopeDto })
  @ApiResponse({ status: 304, description: 'Not modified (the If-None-Match ETag is current).' })
  @ApiErrorResponses('invalid_bbl', 'invalid_request', 'building_not_found')
  async lookup(@Param('bbl') rawBbl: string, @Req() req: Request): Promise<WrittenAnswer> {
    if (rawBbl === 'batch') {
      throw new ApiError('method_not_allowed', 'GET is not allowed on /api/v1/buildings/batch; allowed: POST.', { headers: { Allow: 'POST' } });
    }
    const bbl = parsePathBbl(rawBbl);
    const query = req.query as Record<string, unknown>;
    rejectUnknownParams(query, ['include']);
    const withExplanation = parseInclude(singleParam(query, 'include'));
    const row = await this.buildings.findOne(bbl, withExplanation);
    if (!row) throw new ApiError('building_not_found', `No building with BBL ${bbl} in the data set.`);
    return buildingAnswer(req, row, this.config, withExplanation);
  }
}

function parseInclude(raw: string | undefined): boolean {
  if (raw === undefined) return false;
  const values = raw.split(',').map((v) => v.trim());
  const unknown = values.filter((v) => !(INCLUDES as readonly string[]).includes(v));
  if (unknown.length > 0) {
    throw new ApiError('invalid_request', `"include" accepts only ${INCLUDES.join(', ')} (got "${unknown.join(',').slice(0, 40)}").`);
  }
  return true;
}
