import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { GRADES } from '@bhis/domain';
import { MetaDto, PageLinksDto, PaginationDto } from '@bhis/api-platform';

export class BuildingSummaryLinksDto {
  @ApiProperty({ format: 'uri' }) self!: string;
  @ApiPropertyOptional({ format: 'uri', description: 'With `owner`: the landlord portfolio of the building, when it has one.' }) portfolio?: string;
}

export class BuildingSummaryDto {
  @ApiProperty({ example: '1010150001' }) bbl!: string;
  @ApiProperty({ example: '123 WEST 45 STREET' }) address!: string;
  @ApiProperty({ enum: [1, 2, 3, 4, 5] }) borough!: number;
  @ApiProperty({ type: String, nullable: true, example: '10036' }) zipcode!: string | null;
  @ApiProperty() residential_units!: number;
  @ApiProperty({ type: String, nullable: true }) owner_name!: string | null;
  @ApiProperty({ minimum: 0, maximum: 100 }) total_score!: number;
  @ApiProperty({ enum: GRADES }) grade!: string;
  @ApiProperty({ example: 'Poor' }) label!: string;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'pf_331931',
    description: 'With `owner` only: the landlord portfolio of the building (`GET /portfolios/{id}`); null without a current registration.',
  })
  portfolio_id?: string | null;
  @ApiProperty({ type: BuildingSummaryLinksDto }) _links!: BuildingSummaryLinksDto;
}

export class SearchDataDto {
  @ApiProperty({ type: [BuildingSummaryDto] }) buildings!: BuildingSummaryDto[];
}

export class SearchEnvelopeDto {
  @ApiProperty({ type: SearchDataDto }) data!: SearchDataDto;
  @ApiProperty({ type: MetaDto }) meta!: MetaDto;
  @ApiProperty({ type: PaginationDto }) pagination!: PaginationDto;
  @ApiProperty({ type: PageLinksDto }) _links!: PageLinksDto;
}
