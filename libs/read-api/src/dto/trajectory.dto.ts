import { ApiProperty } from '@nestjs/swagger';
import { COMPONENT_KEYS, GRADES } from '@bhis/domain';
import { MetaDto, PaginationDto } from '@bhis/api-platform';
import { BuildingPageLinksDto } from './envelope.dto';

export class TrajectoryPointDto {
  @ApiProperty({ type: String, format: 'date', example: '2026-11-20' }) as_of!: string;
  @ApiProperty({ example: 'distress_v10_2' }) scorer_id!: string;
  @ApiProperty({ minimum: 0, maximum: 100 }) total_score!: number;
  @ApiProperty({ minimum: 0, maximum: 100 }) health_score!: number;
  @ApiProperty({ enum: GRADES }) grade!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'number' },
    description: `Component scores (0-100, one decimal) by key: ${COMPONENT_KEYS.join(', ')}.`,
    example: Object.fromEntries(COMPONENT_KEYS.map((key) => [key, 42.5])),
  })
  components!: Record<string, number>;
}

export class TrajectoryDataDto {
  @ApiProperty({ example: '1000010001' }) bbl!: string;
  @ApiProperty({ type: [TrajectoryPointDto], description: 'Oldest first.' }) points!: TrajectoryPointDto[];
}

export class TrajectoryEnvelopeDto {
  @ApiProperty({ type: TrajectoryDataDto }) data!: TrajectoryDataDto;
  @ApiProperty({ type: MetaDto }) meta!: MetaDto;
  @ApiProperty({ type: PaginationDto }) pagination!: PaginationDto;
  @ApiProperty({ type: BuildingPageLinksDto }) _links!: BuildingPageLinksDto;
}
