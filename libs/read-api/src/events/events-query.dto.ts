import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { CATEGORIES, EVENT_STATUSES, SEVERITIES } from '@bhis/domain';
import { SOURCES } from '@bhis/sources';

/** Query parameters of the events list (read by `parseEventsParams`, which names the parameter in errors). */
export class EventsQueryDto {
  @ApiPropertyOptional({ description: `Comma-separated source keys: ${SOURCES.map((s) => s.key).join(', ')}.`, example: 'hpd_violations,dob_violations' })
  @IsOptional() @IsString() source?: string;

  @ApiPropertyOptional({ description: `Comma-separated categories: ${CATEGORIES.join(', ')}.`, example: 'water_damage,mold' })
  @IsOptional() @IsString() category?: string;

  @ApiPropertyOptional({ description: `Comma-separated severities: ${SEVERITIES.join(', ')}.`, example: 'critical,high' })
  @IsOptional() @IsString() severity?: string;

  @ApiPropertyOptional({ description: `Comma-separated statuses: ${EVENT_STATUSES.join(', ')}. Events without a status are left out.`, example: 'open,active' })
  @IsOptional() @IsString() status?: string;

  @ApiPropertyOptional({ description: 'Events on or after this date (YYYY-MM-DD, inclusive). Events without a date are left out when a date bound is given.', example: '2023-01-01' })
  @IsOptional() @IsString() since?: string;

  @ApiPropertyOptional({ description: 'Events on or before this date (YYYY-MM-DD, inclusive).', example: '2024-12-31' })
  @IsOptional() @IsString() until?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 25, description: 'Page size, 1-100 (default 25).', example: 25 })
  @IsOptional() @IsString() limit?: string;

  @ApiPropertyOptional({ description: 'The `pagination.next_cursor` of the previous page (same filters).' })
  @IsOptional() @IsString() cursor?: string;
}
