import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { GRADES } from '@bhis/domain';

/**
 * Query parameters of the search. Every value arrives as a string and is read by `parseSearchParams`
 * (which names the parameter in every error); the DTO refuses unknown and repeated parameters.
 */
export class SearchQueryDto {
  @ApiPropertyOptional({ description: 'Free-text street address, normalized (`123 w 45th st` finds `123 WEST 45 STREET`; Queens house numbers like `104-12 101 ave` work; street suffixes in any USPS Publication 28 spelling: `avnue`, `strt`, `pkwy`). A pasted postal address is searched by its delivery line: `347 Lexington Ave, New York, NY 10013` searches `347 LEXINGTON AVENUE`. With a house number, matches addresses that start with it or are similar to it (trigram word similarity); without one (`lexington`), the buildings of the streets starting with it.', example: '123 w 45th st' })
  @IsOptional() @IsString() address?: string;

  @ApiPropertyOptional({ description: 'Borough code 1-5 or name (`Manhattan`, `Bronx`, `Brooklyn`, `Queens`, `Staten Island`; also MN, BX, BK, QN, SI).', example: 'Manhattan' })
  @IsOptional() @IsString() borough?: string;

  @ApiPropertyOptional({ description: '5-digit ZIP code.', example: '10036' })
  @IsOptional() @IsString() zipcode?: string;

  @ApiPropertyOptional({ description: `Comma-separated grades (${GRADES.join(', ')}).`, example: 'D,F' })
  @IsOptional() @IsString() grade?: string;

  @ApiPropertyOptional({ description: 'Substring of the owner name, case-insensitive, at least 3 characters.', example: 'realty' })
  @IsOptional() @IsString() owner?: string;

  @ApiPropertyOptional({ description: 'Building class prefix: a letter, optionally followed by a digit (`D` or `D7`).', example: 'D' })
  @IsOptional() @IsString() building_class?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 100, description: 'Minimum total_score (0-100, inclusive).', example: 60 })
  @IsOptional() @IsString() min_score?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 100, description: 'Maximum total_score (0-100, inclusive).', example: 100 })
  @IsOptional() @IsString() max_score?: string;

  @ApiPropertyOptional({
    enum: ['relevance', 'total_score', '-total_score', 'address'],
    description: 'Order: `-total_score` (most distressed first), `total_score`, `address` (normalized address; for a street without house number, street then BBL), or `relevance` (address queries only). Default: relevance with an `address` that has a house number, `address` with a street alone, otherwise -total_score.',
  })
  @IsOptional() @IsString() sort?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 25, description: 'Page size, 1-100 (default 25).', example: 25 })
  @IsOptional() @IsString() limit?: string;

  @ApiPropertyOptional({ description: 'The `pagination.next_cursor` of the previous page (same filters and sort).' })
  @IsOptional() @IsString() cursor?: string;
}
