import { Controller, Get, Inject, Req } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '@bhis/config';
import { baseUrl, CONFIG, DATA_SOURCE, platformState, RequireScope } from '@bhis/api-platform';
import { poolGetter } from '@bhis/db';
import { API_BASE_PATH, apiPath, successEnvelope } from '@bhis/envelope';
import { ApiEnvelopeResponse, ApiErrorResponses, ApiKeyAuth } from '@bhis/api-platform';
import { sourceStatuses } from './source-status';

class SourceRunDto {
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Counts of the last ingest run (rows read, inserted, updated, rejected...).' })
  counts!: Record<string, unknown>;
}

class SourceDto {
  @ApiProperty({ example: 'hpd_violations' }) key!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ example: 'HPD' }) agency!: string;
  @ApiProperty({ type: String, nullable: true, example: 'wvxf-dwi5' }) dataset_id!: string | null;
  @ApiProperty({ type: String, nullable: true }) url!: string | null;
  @ApiProperty({ enum: ['daily', 'weekly', 'monthly', 'quarterly', 'yearly', 'per_sale', 'rarely', 'static'] }) cadence!: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) last_refreshed_at!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date' }) latest_record_date!: string | null;
  @ApiProperty() records!: number;
  @ApiProperty({ example: 'ok' }) status!: string;
  @ApiProperty({ description: 'Not refreshed within the allowance of its cadence (daily 3 days, weekly 10, monthly 45, quarterly 120, yearly 400).' })
  is_late!: boolean;
  @ApiPropertyOptional({ type: SourceRunDto, nullable: true }) last_run!: SourceRunDto | null;
}

class SourceListDto {
  @ApiProperty({ type: [SourceDto] }) sources!: SourceDto[];
}

@ApiTags('Sources')
@ApiKeyAuth()
@Controller(apiPath('/sources'))
export class SourcesController {
  private readonly pool: ReturnType<typeof poolGetter>;

  constructor(
    @Inject(DATA_SOURCE) dataSource: DataSource,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {
    this.pool = poolGetter(dataSource);
  }

  @Get()
  @RequireScope('sources:read')
  @ApiOperation({ summary: 'Freshness of the 25 public data sources' })
  @ApiEnvelopeResponse(SourceListDto, { description: 'Every source with its last refresh, newest record and lateness.' })
  @ApiErrorResponses()
  async list(@Req() req: Request) {
    const sources = await sourceStatuses(this.pool());
    return successEnvelope(platformState(req), { sources }, { links: { self: `${baseUrl(req, this.config.PUBLIC_BASE_URL)}${API_BASE_PATH}/sources` } });
  }
}
