import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { GRADES } from '@bhis/domain';
import { CONFIDENCE_FLAG_SLUGS, flagGlossary, SCORE_FLAG_SLUGS } from '@bhis/scoring';
import { MetaDto } from '@bhis/api-platform';
import { BuildingLinksDto } from './envelope.dto';

export class ComponentScoreDto {
  @ApiProperty({ description: '0-100, one decimal; higher is more distressed.', example: 62.4 }) score!: number;
  @ApiProperty({ enum: GRADES, example: 'D' }) grade!: string;
}

export class ComponentsDto {
  @ApiProperty({ type: ComponentScoreDto }) living_conditions!: ComponentScoreDto;
  @ApiProperty({ type: ComponentScoreDto }) building_safety!: ComponentScoreDto;
  @ApiProperty({ type: ComponentScoreDto }) complaint_burden!: ComponentScoreDto;
  @ApiProperty({ type: ComponentScoreDto }) management_quality!: ComponentScoreDto;
  @ApiProperty({ type: ComponentScoreDto }) financial_distress!: ComponentScoreDto;
  @ApiProperty({ type: ComponentScoreDto }) deferred_maintenance!: ComponentScoreDto;
  @ApiProperty({ type: ComponentScoreDto }) legal_enforcement!: ComponentScoreDto;
}

export class ScoresDto {
  @ApiProperty({ minimum: 0, maximum: 100, example: 71, description: 'Distress score; higher is more distressed.' }) total_score!: number;
  @ApiProperty({ minimum: 0, maximum: 100, example: 29 }) health_score!: number;
  @ApiProperty({ enum: GRADES, example: 'D' }) grade!: string;
  @ApiProperty({ example: 'Poor' }) label!: string;
  @ApiProperty({ example: 'distress_v10_2' }) scorer_id!: string;
  @ApiProperty({ example: 'large_prewar' }) peer_group!: string;
  @ApiProperty({ example: 'good' }) data_quality!: string;
  @ApiProperty({ type: ComponentsDto }) components!: ComponentsDto;
  @ApiProperty({
    type: [String],
    example: ['fdny-vacate-active'],
    description: `Alert flags and known limits, by slug (in this order). What each means:\n\n${flagGlossary(SCORE_FLAG_SLUGS)}`,
  })
  flags!: string[];
}

export class CountsDto {
  @ApiProperty() hpd_violations_total!: number;
  @ApiProperty() hpd_violations_open!: number;
  @ApiProperty() hpd_class_c_open!: number;
  @ApiProperty() dob_violations_total!: number;
  @ApiProperty() complaints_311!: number;
  @ApiProperty() permits!: number;
  @ApiProperty() total_events!: number;
}

export class ConfidenceDimensionsDto {
  @ApiProperty({ example: 0.9 }) coverage!: number;
  @ApiProperty({ example: 0.8 }) freshness!: number;
  @ApiProperty({ example: 0.7, description: 'Reported, not weighed in the score.' }) corroboration!: number;
  @ApiProperty({ example: 0.8, description: 'How tightly the confirmed records pin the total down (see interval).' }) precision!: number;
}

export class ScoreIntervalDto {
  @ApiProperty({ example: 38 }) low!: number;
  @ApiProperty({ example: 47 }) high!: number;
}

export class ConfidenceDto {
  @ApiProperty({ example: 0.81, description: 'Two decimals, 0-1.' }) score!: number;
  @ApiProperty({ example: 'high' }) tier!: string;
  @ApiProperty({
    type: [String],
    example: ['stale-source', 'stale-source:hpd_violations'],
    description: `What limits the confidence, by slug; \`stale-source:<key>\` names a source by its key (GET /sources). What each means:\n\n${flagGlossary(CONFIDENCE_FLAG_SLUGS)}`,
  })
  flags!: string[];
  @ApiProperty({ type: ConfidenceDimensionsDto }) dimensions!: ConfidenceDimensionsDto;
  @ApiProperty({
    type: ScoreIntervalDto,
    description: 'Range of total_score the records support: every count of confirmed records moved one Poisson standard deviation.',
  })
  interval!: ScoreIntervalDto;
  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: 'Why the model cannot know this building (public housing, unreliable unit count; tier insufficient), else null.',
  })
  reason!: string | null;
  @ApiProperty({ example: 5 }) primary_sources!: number;
  @ApiProperty({ example: 4 }) active_families!: number;
}

export class SignalExplanationDto {
  @ApiProperty({ example: 'hpd_class_c_open' }) signal!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ description: 'Points of the component attributed to the signal (negative for a credit).' }) contribution!: number;
  @ApiProperty({ description: 'Events behind the signal.' }) count!: number;
  @ApiProperty({ type: [String], description: 'Newest event ids behind the signal (see the events endpoint).' }) event_ids!: string[];
}

export class ScoreAdjustmentDto {
  @ApiProperty() rule!: string;
  @ApiProperty() description!: string;
  @ApiProperty() from!: number;
  @ApiProperty() to!: number;
}

export class ExplanationComponentsDto {
  @ApiProperty({ type: [SignalExplanationDto] }) living_conditions!: SignalExplanationDto[];
  @ApiProperty({ type: [SignalExplanationDto] }) building_safety!: SignalExplanationDto[];
  @ApiProperty({ type: [SignalExplanationDto] }) complaint_burden!: SignalExplanationDto[];
  @ApiProperty({ type: [SignalExplanationDto] }) management_quality!: SignalExplanationDto[];
  @ApiProperty({ type: [SignalExplanationDto] }) financial_distress!: SignalExplanationDto[];
  @ApiProperty({ type: [SignalExplanationDto] }) deferred_maintenance!: SignalExplanationDto[];
  @ApiProperty({ type: [SignalExplanationDto] }) legal_enforcement!: SignalExplanationDto[];
}

export class ExplanationDto {
  @ApiProperty({ type: ExplanationComponentsDto }) components!: ExplanationComponentsDto;
  @ApiProperty({ type: [ScoreAdjustmentDto] }) adjustments!: ScoreAdjustmentDto[];
}

export class RuleCheckDto {
  @ApiProperty({ description: 'Whether the building meets the published rule.' }) met!: boolean;
  @ApiProperty({ example: 30, description: 'Residential units the rule was applied with.' }) units!: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'number' },
    example: { open_bc_violations_5y: 100, emergency_repair_charges_5y: 3000 },
    description: 'The measured figures of the rule.',
  })
  figures!: Record<string, number>;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'number' },
    nullable: true,
    example: { open_bc_violations_5y: 90, emergency_repair_charges_5y: 2500 },
    description: "The rule's thresholds for this building's size (figures must reach all of them); null when the rule does not apply to its size.",
  })
  thresholds!: Record<string, number> | null;
}

export class PublishedRulesDto {
  @ApiProperty({ type: RuleCheckDto, description: 'HPD Alternative Enforcement Program selection criteria (flag aep-criteria-met).' }) aep!: RuleCheckDto;
  @ApiProperty({ type: RuleCheckDto, description: 'HPD Underlying Conditions Program criteria (flag ucp-criteria-met).' }) ucp!: RuleCheckDto;
  @ApiProperty({ type: RuleCheckDto, description: 'Public Advocate Worst Landlord Watchlist level (flag watchlist-criteria-met).' })
  watchlist!: RuleCheckDto;
}

/** The building object of docs/interface-spec.md (2.2). */
export class BuildingDto {
  @ApiProperty({ example: '1000010001', pattern: '^[1-5][0-9]{9}$' }) bbl!: string;
  @ApiProperty({ example: '123 WEST 45 STREET' }) address!: string;
  @ApiProperty({ type: String, nullable: true, example: 'NEW YORK' }) city!: string | null;
  @ApiProperty({ type: String, nullable: true, example: '10036' }) zipcode!: string | null;
  @ApiProperty({ enum: [1, 2, 3, 4, 5], example: 1 }) borough!: number;
  @ApiProperty({ example: 'Manhattan' }) borough_name!: string;
  @ApiProperty({ example: 48 }) residential_units!: number;
  @ApiProperty({ type: Number, nullable: true, example: 50 }) total_units!: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 1925 }) year_built!: number | null;
  @ApiProperty({ type: String, nullable: true, example: 'D7' }) building_class!: string | null;
  @ApiProperty({ type: String, nullable: true }) owner_name!: string | null;
  @ApiProperty({ type: Number, nullable: true, example: 40.7577 }) latitude!: number | null;
  @ApiProperty({ type: Number, nullable: true, example: -73.9857 }) longitude!: number | null;
  @ApiProperty({ type: ScoresDto, nullable: true, description: 'Null until the building has been scored (a building newly added to the data set).' })
  scores!: ScoresDto | null;
  @ApiProperty({ type: CountsDto, nullable: true, description: 'Null until the building has been scored.' }) counts!: CountsDto | null;
  @ApiProperty({ type: ConfidenceDto, nullable: true, description: 'Null until the building has been scored.' }) confidence!: ConfidenceDto | null;
  @ApiPropertyOptional({
    type: PublishedRulesDto,
    description: 'The published AEP, UCP and Watchlist rules with the figures behind each, so they can be checked by hand. Absent until scored.',
  })
  published_rules?: PublishedRulesDto;
  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date',
    example: '2026-11-20',
    description: 'The data date the score reflects (the `as_of` column of the CSV export); null until scored.',
  })
  as_of!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time', example: '2026-11-20T07:12:45.120Z', description: 'When the score was computed; null until scored.' })
  scored_at!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date-time',
    example: '2026-11-20T06:41:03.512Z',
    description: 'The latest successful refresh of the public data sources (each source\'s own freshness: `GET /api/v1/sources`); null before any load.',
  })
  data_as_of!: string | null;
  @ApiPropertyOptional({ type: ExplanationDto, nullable: true, description: 'Only with `include=explanation`; null when not scored.' })
  explanation?: ExplanationDto | null;
}

export class BuildingEnvelopeDto {
  @ApiProperty({ type: BuildingDto }) data!: BuildingDto;
  @ApiProperty({ type: MetaDto }) meta!: MetaDto;
  @ApiProperty({ type: Object, nullable: true, example: null, description: 'Always null for a single building.' }) pagination!: null;
  @ApiProperty({ type: BuildingLinksDto }) _links!: BuildingLinksDto;
}
