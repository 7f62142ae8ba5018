import { ApiProperty } from '@nestjs/swagger';
import { BuildingDto } from './building.dto';
import { MetaDto } from '@bhis/api-platform';

export class BatchRequestDto {
  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: 500,
    example: ['1000010001', '3012340056'],
    description: '1 to 500 BBLs. Repeated entries are answered once; entries that are not valid BBLs get status `invalid`.',
  })
  bbls!: string[];
}

export class BatchResultDto {
  @ApiProperty({ description: 'The entry as sent.', example: '1000010001' }) bbl!: string;
  @ApiProperty({ enum: ['found', 'not_found', 'invalid'] }) status!: string;
  @ApiProperty({ type: BuildingDto, nullable: true, description: 'The same object as the single lookup; null unless found.' })
  building!: BuildingDto | null;
}

export class BatchSummaryDto {
  @ApiProperty({ description: 'Distinct entries in the request (repeated entries count once): found + not_found + invalid.' })
  requested!: number;
  @ApiProperty() found!: number;
  @ApiProperty() not_found!: number;
  @ApiProperty() invalid!: number;
  @ApiProperty({ example: 3, description: 'Entries in the body, repeats included (`requested` plus the repeats).' }) received!: number;
  @ApiProperty({ type: [String], example: ['1000010001'], description: 'Entries sent more than once (each answered once), in the order of their first occurrence.' })
  duplicates!: string[];
  @ApiProperty({ type: [String], example: ['2000010001'], description: 'The valid BBLs not in the data set (the `not_found` results), in request order.' })
  not_found_bbls!: string[];
}

export class BatchDataDto {
  @ApiProperty({ type: [BatchResultDto], description: 'One result per distinct entry, in request order.' }) results!: BatchResultDto[];
  @ApiProperty({ type: BatchSummaryDto }) summary!: BatchSummaryDto;
}

export class BatchEnvelopeDto {
  @ApiProperty({ type: BatchDataDto }) data!: BatchDataDto;
  @ApiProperty({ type: MetaDto }) meta!: MetaDto;
  @ApiProperty({ type: Object, nullable: true, example: null }) pagination!: null;
  @ApiProperty({ type: Object, example: {} }) _links!: Record<string, string>;
}
