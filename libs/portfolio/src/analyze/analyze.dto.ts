import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMinSize, IsArray, IsString, MaxLength, ValidateIf } from 'class-validator';
import { COMPONENT_KEYS, GRADES } from '@bhis/domain';
import { PORTFOLIO_BBL_LIMIT } from '../bbl-list';

export class BblListRequestDto {
  @ApiPropertyOptional({
    type: [String],
    minItems: 1,
    maxItems: PORTFOLIO_BBL_LIMIT,
    example: ['1000010001', '3012340056'],
    description: `1 to ${PORTFOLIO_BBL_LIMIT} BBLs (10 digits). Duplicates are collapsed; invalid entries are counted as invalid. More: 400 too_many_bbls. Either this or \`portfolio_id\`.`,
  })
  @ValidateIf((o: BblListRequestDto) => o.bbls !== undefined)
  @IsArray()
  @ArrayMinSize(1)
  bbls?: unknown[];

  @ApiPropertyOptional({
    example: 'pf_331931',
    maxLength: 40,
    description: 'A landlord portfolio (`GET /buildings/{bbl}/portfolio`): its current buildings in place of `bbls`. Unknown: 404 portfolio_not_found.',
  })
  @ValidateIf((o: BblListRequestDto) => o.portfolio_id !== undefined)
  @IsString()
  @MaxLength(40)
  portfolio_id?: string;
}

export class AnalysisSummaryDto {
  @ApiProperty({ description: 'Distinct entries received (found + not_found + invalid).' }) requested!: number;
  @ApiProperty({ description: 'BBLs with a current score.' }) found!: number;
  @ApiProperty({ description: 'Valid BBLs not in the data set.' }) not_found!: number;
  @ApiProperty({ description: 'Entries that are not valid BBLs.' }) invalid!: number;
  @ApiProperty({ description: 'Residential units of the found buildings.' }) residential_units!: number;
}

export class GradeShareDto {
  @ApiProperty() count!: number;
  @ApiProperty({ description: 'Share of the found buildings, 0-1 (4 decimals).' }) share!: number;
}

export class WorstBuildingDto {
  @ApiProperty({ example: '3012340056' }) bbl!: string;
  @ApiProperty({ example: '123 WEST 45 STREET' }) address!: string;
  @ApiProperty({ example: 87 }) total_score!: number;
  @ApiProperty({ enum: GRADES }) grade!: string;
  @ApiProperty({ type: [String] }) flags!: string[];
}

export class RiskMetricsDto {
  @ApiProperty({ type: Number, nullable: true, description: 'Mean total_score (1 decimal).' }) mean!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Median total_score.' }) median!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: '90th percentile of total_score (continuous).' }) p90!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Mean total_score weighted by residential units.' }) unit_weighted_mean!: number | null;
  @ApiProperty({ description: 'Share of found buildings graded D or F.' }) share_buildings_d_or_f!: number;
  @ApiProperty({ description: 'Share of residential units in buildings graded D or F.' }) share_units_d_or_f!: number;
}

export class GradeDistributionDto {
  @ApiProperty({ type: GradeShareDto }) A!: GradeShareDto;
  @ApiProperty({ type: GradeShareDto }) B!: GradeShareDto;
  @ApiProperty({ type: GradeShareDto }) C!: GradeShareDto;
  @ApiProperty({ type: GradeShareDto }) D!: GradeShareDto;
  @ApiProperty({ type: GradeShareDto }) F!: GradeShareDto;
}

const componentMean = { type: Number, nullable: true, description: 'Mean component score (1 decimal); null when nothing was found.' };

export class ComponentMeansDto implements Record<(typeof COMPONENT_KEYS)[number], number | null> {
  @ApiProperty(componentMean) living_conditions!: number | null;
  @ApiProperty(componentMean) building_safety!: number | null;
  @ApiProperty(componentMean) complaint_burden!: number | null;
  @ApiProperty(componentMean) management_quality!: number | null;
  @ApiProperty(componentMean) financial_distress!: number | null;
  @ApiProperty(componentMean) deferred_maintenance!: number | null;
  @ApiProperty(componentMean) legal_enforcement!: number | null;
}

export class PortfolioAnalysisDto {
  @ApiProperty({ type: AnalysisSummaryDto }) summary!: AnalysisSummaryDto;
  @ApiProperty({ type: GradeDistributionDto, description: 'Counts and shares per grade A-F.' })
  grade_distribution!: GradeDistributionDto;
  @ApiProperty({ type: [WorstBuildingDto], description: 'Top 25 by total_score, buildings the model cannot know excepted.' })
  worst_buildings!: WorstBuildingDto[];
  @ApiProperty({
    type: [WorstBuildingDto],
    description:
      'Buildings the model cannot know (flags public-housing, units-unknown: lowest confidence, grade held between B and D), top 25 by total_score, listed apart from worst_buildings.',
  })
  uncertain_buildings!: WorstBuildingDto[];
  @ApiProperty({ type: RiskMetricsDto }) risk_metrics!: RiskMetricsDto;
  @ApiProperty({ type: ComponentMeansDto, description: 'Mean component scores of the found buildings.' })
  component_means!: ComponentMeansDto;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'integer' }, description: 'Buildings per flag, most frequent first.' })
  flag_summary!: Record<string, number>;
  @ApiProperty({ type: [String], description: 'Valid BBLs not in the data set, in request order.' }) not_found!: string[];
}
