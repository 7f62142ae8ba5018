import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { GRADES } from '@bhis/domain';
import { MetaDto, PageLinksDto, PaginationDto } from '@bhis/api-platform';

export class PortfolioLinkDto {
  @ApiProperty({ enum: ['company', 'person', 'address'], description: 'What the registrations share: an owner company, an owner or head officer (name and ZIP), or an owner office.' })
  kind!: string;
  @ApiProperty({ description: 'The normalized key the registrations share.', example: '26 DEL 11231' }) key!: string;
  @ApiProperty({ description: 'As the first registration that names it spells it.', example: '26 DELAVAN STREET BROOKLYN NY 11231' }) shown!: string;
  @ApiProperty({ type: [Number], description: 'HPD registration ids that name it.', example: [331931, 357451] }) registration_ids!: number[];
}

export class PortfolioBuildingDto {
  @ApiProperty({ example: '3005120021' }) bbl!: string;
  @ApiProperty({ example: '26 DELAVAN STREET' }) address!: string;
  @ApiProperty({ description: 'Residential units.', example: 24 }) units!: number;
  @ApiProperty({ enum: GRADES, nullable: true, type: String, description: 'Null for a building not scored.' }) grade!: string | null;
  @ApiProperty({ nullable: true, type: Number, minimum: 0, maximum: 100, example: 61 }) total_score!: number | null;
}

export class PortfolioDto {
  @ApiProperty({ description: 'Stable id: `pf_` and the portfolio\'s lowest current HPD registration id.', example: 'pf_331931' }) id!: string;
  @ApiProperty({ description: 'Buildings (BBLs) in the portfolio.', example: 14 }) building_count!: number;
  @ApiProperty({ description: 'Current HPD registrations.', example: 15 }) registration_count!: number;
  @ApiProperty({ description: 'Residential units of all its buildings.', example: 412 }) units!: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    description: 'Buildings per grade A-F, and `ungraded` (not scored).',
    example: { A: 2, B: 5, C: 4, D: 2, F: 1, ungraded: 0 },
  })
  grade_distribution!: Record<string, number>;
  @ApiProperty({ type: [PortfolioBuildingDto], description: 'The highest-scored (most distressed) buildings, at most 5.' }) worst_buildings!: PortfolioBuildingDto[];
  @ApiProperty({ type: [PortfolioLinkDto], description: 'The names and addresses shared by two or more of its registrations: what defines it. Empty for a building alone.' })
  links!: PortfolioLinkDto[];
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Set when the portfolio is unlikely to be one owner (an office that files for many), with the reason.' })
  caution!: string | null;
  @ApiProperty({ type: String, format: 'date-time', description: 'When the portfolios were last rebuilt from the registrations.' }) built_at!: string;
  @ApiProperty({ type: [PortfolioBuildingDto], description: 'Its buildings in BBL order, one page (cursor pagination).' }) buildings!: PortfolioBuildingDto[];
}

export class PortfolioLinksDto extends PageLinksDto {
  @ApiProperty({ example: 'https://bhis.example.org/api/v1/portfolios/pf_331931' }) portfolio!: string;
}

export class PortfolioEnvelopeDto {
  @ApiProperty({ type: PortfolioDto }) data!: PortfolioDto;
  @ApiProperty({ type: MetaDto }) meta!: MetaDto;
  @ApiProperty({ type: PaginationDto }) pagination!: PaginationDto;
  @ApiProperty({ type: PortfolioLinksDto }) _links!: PortfolioLinksDto;
}
