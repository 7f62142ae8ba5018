import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { platformState, RequireScope } from '@bhis/api-platform';
import { ReadReplicas } from '@bhis/db';
import { apiPath, successEnvelope } from '@bhis/envelope';
import { partitionBbls } from '../bbl-list';
import { ApiEnvelopeResponse, ApiErrorResponses, ApiKeyAuth } from '@bhis/api-platform';
import { BblListRequestDto, PortfolioAnalysisDto } from './analyze.dto';
import { analyzePortfolio } from './portfolio-analysis';

@ApiTags('Portfolio')
@ApiKeyAuth()
@Controller(apiPath('/portfolio/analyze'))
export class AnalyzeController {
  /** Published data only: a replica may answer (ReadReplicas). */
  constructor(private readonly replicas: ReadReplicas) {}

  @Post()
  @HttpCode(200)
  @RequireScope('portfolio:read')
  @ApiOperation({
    summary: 'Risk analysis of up to 10,000 buildings',
    description:
      'Grade distribution, the 25 worst buildings, aggregate risk metrics, component means and a flag summary. ' +
      'Costs 1 rate-limit unit per 100 BBLs (at least 5).',
  })
  @ApiBody({ type: BblListRequestDto })
  @ApiEnvelopeResponse(PortfolioAnalysisDto, { description: 'The analysis.' })
  @ApiErrorResponses('invalid_request', 'too_many_bbls', 'payload_too_large')
  async analyze(@Req() req: Request, @Body() body: BblListRequestDto) {
    const analysis = await analyzePortfolio(this.replicas.readPool, partitionBbls(body.bbls));
    return successEnvelope(platformState(req), analysis);
  }
}
