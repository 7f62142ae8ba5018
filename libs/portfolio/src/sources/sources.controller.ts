import { Controller, Get, Inject, Req } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '@bhis/config';
import { baseUrl, CONFIG, DATA_SOURCE, platformState, RequireScope } from '@bhis/api-platform';
import { poolGetter } from '@bhis/db';
import { API_BASE_PATH, apiPath, successEnvelope } from '@bhis/envelope';
import { ApiEnvelopeResponse, ApiErrorResponses, ApiKeyAuth } from '@bhis/api-platform';
import { sourceStatuses } from '@bhis/runs';

class SourceRunDto {
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Counts of the last ingest run (rows read, inserted, updated, rejected...).' })
  counts!: Record<string, unknown>;
}

class SourceErrorDto {
  @ApiProperty({ example: 'soda_field_mismatch', description: 'What kind of failure: header_mismatch, soda_field_mismatch, download_refused, too_few_records, file_missing, out_of_memory, out_of_resources or load_failed.' })
  code!: string;
  @ApiProperty({ description: 'The error of the last failed run, then what the operator should do.' }) message!: string;
  @ApiProperty({ description: 'Retrying cannot help: the daily refresh leaves the source alone until an operator acts.' }) permanent!: boolean;
  @ApiProperty({ type: String, nullable: true, format: 'uuid' }) run_id!: string | null;
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
  @ApiProperty({ description: 'Not refreshed within the allowance of its cadence (daily 3 days, weekly 10, monthly 45, quarterly 120, yearly 400), or never loaded.' })
  is_late!: boolean;
  @ApiProperty({
    enum: ['ok', 'late', 'failing', 'never_loaded'],
    description:
      'ok only when its last refresh succeeded within the allowance of its cadence; late past it; failing while its refreshes fail (the data kept is the last good one); never_loaded before its first successful load. The buildings\' stale-source:<key> flags name the sources that are not ok, by the same rule.',
  })
  state!: string;
  @ApiProperty({ description: 'Its newest record is older than its cadence allows (daily 30 days, weekly 45, monthly 120, quarterly 270, yearly 730): lowers the freshness of the confidence score, not the state.' })
  records_behind!: boolean;
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'When its refreshes began to fail; null while they succeed.' })
  failing_since!: string | null;
  @ApiProperty({ type: SourceErrorDto, nullable: true, description: 'The last failure, while the source is failing.' }) last_error!: SourceErrorDto | null;
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
