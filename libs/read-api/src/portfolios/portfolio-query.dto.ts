import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';

export class PortfolioQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 25, description: 'Buildings per page, 1-100 (default 25).', example: 25 })
  @IsOptional() @IsString() limit?: string;

  @ApiPropertyOptional({ description: 'The `pagination.next_cursor` of the previous page.' })
  @IsOptional() @IsString() cursor?: string;
}
