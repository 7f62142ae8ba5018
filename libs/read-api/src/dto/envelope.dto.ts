import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ERROR_CODES } from '@bhis/envelope';

export class RateLimitDto {
  @ApiProperty({ example: 6000 }) limit!: number;
  @ApiProperty({ example: 5999 }) remaining!: number;
  @ApiProperty({ example: '2026-11-21T10:01:00.000Z', format: 'date-time' }) reset_at!: string;
}

export class MetaDto {
  @ApiProperty({ example: 'req_5f0c6b1e9a3d4c2b1a0f9e8d', pattern: '^req_[0-9a-f]{24}$' }) request_id!: string;
  @ApiProperty({ example: 'v1' }) api_version!: string;
  @ApiProperty({ example: '2026-11-21T10:00:00.000Z', format: 'date-time' }) timestamp!: string;
  @ApiProperty({ type: RateLimitDto, nullable: true }) rate_limit!: RateLimitDto | null;
}

export class PaginationDto {
  @ApiProperty({ example: 25 }) limit!: number;
  @ApiProperty() has_more!: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` to get the next page; null on the last page.' })
  next_cursor!: string | null;
}

export class SelfLinksDto {
  @ApiProperty({ format: 'uri' }) self!: string;
}

export class BuildingLinksDto extends SelfLinksDto {
  @ApiProperty({ format: 'uri' }) events!: string;
  @ApiProperty({ format: 'uri' }) trajectory!: string;
}

export class ErrorBodyDto {
  @ApiProperty({ enum: Object.keys(ERROR_CODES), example: 'invalid_bbl' }) code!: string;
  @ApiProperty({ example: 'Invalid BBL "12345": a BBL must be exactly 10 digits.' }) message!: string;
  @ApiProperty({ example: 400 }) status!: number;
  @ApiPropertyOptional({ example: '/api-docs.md#error-invalid-bbl' }) doc_url?: string;
}

export class ErrorMetaDto {
  @ApiProperty({ pattern: '^req_[0-9a-f]{24}$' }) request_id!: string;
  @ApiProperty({ example: 'v1' }) api_version!: string;
  @ApiProperty({ format: 'date-time' }) timestamp!: string;
  @ApiProperty({ type: RateLimitDto, nullable: true }) rate_limit!: RateLimitDto | null;
}

export class ErrorEnvelopeDto {
  @ApiProperty({ type: ErrorBodyDto }) error!: ErrorBodyDto;
  @ApiProperty({ type: ErrorMetaDto }) meta!: ErrorMetaDto;
}
