import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { costOfBbls, platformState, RequestCharges, RequireScope, routeCostOf, Idempotent } from '@bhis/api-platform';
import { ReadReplicas } from '@bhis/db';
import { apiPath, successEnvelope } from '@bhis/envelope';
import { partitionBbls } from '../bbl-list';
import { portfolioBbls, requireOneTarget } from '../portfolio-members';
import { ApiEnvelopeResponse, ApiErrorResponses, ApiKeyAuth } from '@bhis/api-platform';
import { BblListRequestDto, PortfolioAnalysisDto } from './analyze.dto';
import { analyzePortfolio } from './portfolio-analysis';

@ApiTags('Portfolio')
@ApiKeyAuth()
@Controller(apiPath('/portfolio/analyze'))
export class AnalyzeController {
  /** Published data only: a replica may answer (ReadReplicas). */
  constructor(
    private readonly replicas: ReadReplicas,
    private readonly charges: RequestCharges,
  ) {}

  @Post()
  @Idempotent()
  @HttpCode(200)
  @RequireScope('portfolio:read')
  @ApiOperation({
    summary: 'Risk analysis of up to 10,000 buildings',
    description:
      'Grade distribution, the 25 worst buildings, aggregate risk metrics, component means and a flag summary, of the BBLs sent ' +
      'or of the current buildings of a landlord portfolio (`portfolio_id`). ' +
      'Costs 1 rate-limit unit per 100 BBLs (a portfolio: per 100 of its buildings; at least 5).',
  })
  @ApiBody({ type: BblListRequestDto })
  @ApiEnvelopeResponse(PortfolioAnalysisDto, { description: 'The analysis.' })
  @ApiErrorResponses('invalid_request', 'too_many_bbls', 'portfolio_not_found', 'payload_too_large', 'rate_limit_exceeded')
  async analyze(@Req() req: Request, @Body() body: BblListRequestDto) {
    requireOneTarget(body);
    let list = body.bbls;
    if (body.portfolio_id !== undefined) {
      list = await portfolioBbls(this.replicas.readPool, body.portfolio_id);
      // the body was charged as read (json-body.guard.ts) and names no BBL: the portfolio's buildings are charged here
      await this.charges.charge(req, costOfBbls(routeCostOf('POST', apiPath('/portfolio/analyze')), list.length) - platformState(req).cost);
    }
    const analysis = await analyzePortfolio(this.replicas.readPool, partitionBbls(list ?? []));
    return successEnvelope(platformState(req), analysis);
  }
}
