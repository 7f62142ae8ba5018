import { ApiPropertyOptional, ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { FINAL_RUN_STATUSES } from '@bhis/runs';

export class TriggerIngestDto {
  @ApiProperty({ description: 'Source key, e.g. hpd_violations (see GET /api/v1/sources)' })
  @IsString()
  @Matches(/^[a-z0-9_]{1,60}$/, { message: 'source must be a source key such as hpd_violations' })
  source!: string;

  @ApiPropertyOptional({ description: 'A URL serving the source\'s CSV export' })
  @IsOptional()
  @IsString()
  @Matches(/^https?:\/\/\S{1,2000}$/, { message: 'url must be an http(s) URL' })
  url?: string;

  @ApiPropertyOptional({ description: 'A file on the server, inside its DATA_DIR' })
  @IsOptional()
  @IsString()
  file?: string;

  @ApiPropertyOptional({ description: 'Download from NYC Open Data (skipped when unchanged; incremental when loaded before)' })
  @IsOptional()
  @IsBoolean()
  download?: boolean;

  @ApiPropertyOptional({
    description:
      'The "url" or "file" is the source\'s whole data set (its full export): records missing from it are closed as vanished; without it nothing is closed. Not with "download", which knows by itself what it brings.',
  })
  @IsOptional()
  @IsBoolean()
  complete?: boolean;

  @ApiPropertyOptional({ description: 'Queue again even if the same input was ingested today' })
  @IsOptional()
  @IsBoolean()
  force?: boolean;

  @ApiPropertyOptional({ description: 'Queue an incremental scoring run when the ingest succeeds' })
  @IsOptional()
  @IsBoolean()
  score?: boolean;
}

export class TriggerScoringDto {
  @ApiPropertyOptional({ description: 'Rescore every building (default: the buildings whose data changed)' })
  @IsOptional()
  @IsBoolean()
  full?: boolean;

  @ApiPropertyOptional({ type: [String], description: 'Rescore only these BBLs' })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(500)
  @Matches(/^[1-5]\d{9}$/, { each: true, message: 'each of bbls must be a 10-digit BBL' })
  bbls?: string[];

  @ApiPropertyOptional({ description: 'Score as of this date (YYYY-MM-DD)' })
  @IsOptional()
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'as_of must be a date YYYY-MM-DD' })
  as_of?: string;

  @ApiPropertyOptional({ description: 'Write monthly history points for the last N months (history only)' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(120)
  backfill_months?: number;
}

const RUN_STATUSES = ['queued', 'running', 'retrying', ...FINAL_RUN_STATUSES];

export class ListRunsQuery {
  @ApiPropertyOptional({ description: 'Only the runs of this source key' })
  @IsOptional()
  @Matches(/^[a-z0-9_]{1,60}$/, { message: 'source must be a source key such as hpd_violations' })
  source?: string;

  @ApiPropertyOptional({ enum: RUN_STATUSES, description: 'Only the runs in this status' })
  @IsOptional()
  @IsIn(RUN_STATUSES, { message: `status must be one of ${RUN_STATUSES.join(', ')}` })
  status?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 25 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be an integer from 1 to 100' })
  @Min(1, { message: 'limit must be an integer from 1 to 100' })
  @Max(100, { message: 'limit must be an integer from 1 to 100' })
  limit?: number;

  @ApiPropertyOptional({ description: 'The next_cursor of the previous page' })
  @IsOptional()
  @IsString()
  cursor?: string;
}

export class RejectedRowsQuery {
  @ApiPropertyOptional({ description: 'Only the rows quarantined for this reason (e.g. missing_record_key)' })
  @IsOptional()
  @Matches(/^[a-z0-9_]{1,80}$/, { message: 'reason must be a quarantine reason such as missing_record_key' })
  reason?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 500, default: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be an integer from 1 to 500' })
  @Min(1, { message: 'limit must be an integer from 1 to 500' })
  @Max(500, { message: 'limit must be an integer from 1 to 500' })
  limit?: number;

  @ApiPropertyOptional({ description: 'The next_cursor of the previous page' })
  @IsOptional()
  @Matches(/^\d{1,18}$/, { message: 'cursor must be the next_cursor of the previous page' })
  cursor?: string;
}
