import { ApiPropertyOptional, ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';

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
