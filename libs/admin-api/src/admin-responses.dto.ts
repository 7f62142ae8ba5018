import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

const RUN_STATUSES = ['queued', 'running', 'retrying', 'succeeded', 'failed', 'skipped', 'cancelled'];

export class QueuedRunDto {
  @ApiProperty({ format: 'uuid' }) run_id!: string;
  @ApiProperty({ example: 'ingest.hpd_litigations.3f9c0a1b2d4e5f60' }) job_id!: string;
  @ApiPropertyOptional({ description: 'False when the same input was already queued or loaded today: the earlier run is returned and nothing new is queued (pass `force` to load it again).' })
  created?: boolean;
}

export class LoadProgressDto {
  @ApiPropertyOptional({ enum: ['parsing', 'merging', 'done'] }) phase?: string;
  @ApiPropertyOptional({ description: 'Records read so far.' }) rows?: number;
  @ApiPropertyOptional() bytes?: number;
  @ApiPropertyOptional({ type: Number, nullable: true }) total_bytes?: number | null;
}

export class IngestRunDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ example: 'hpd_violations' }) source!: string;
  @ApiProperty({ enum: RUN_STATUSES }) status!: string;
  @ApiProperty({ example: 'admin_api', description: '`cli`, `admin_api`, `refresh` or `ingest`.' }) trigger!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The file, URL or `download`; ` (complete)` when it is the whole data set.' }) input!: string | null;
  @ApiProperty({ type: String, nullable: true }) job_id!: string | null;
  @ApiProperty({ description: 'Attempts started (a retry after a failure or a dead worker is one more).' }) attempt!: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'What the load counted: read = loaded + quarantined + out_of_scope, the reasons of each, events and facts inserted and updated, vanished records closed, status words mapped to nothing (`unmapped_values`).',
  })
  counts!: Record<string, unknown>;
  @ApiProperty({ type: LoadProgressDto }) progress!: LoadProgressDto;
  @ApiProperty({ type: String, nullable: true }) error!: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: "A failure's parts as data: for a wrong file `missing_columns`, `unexpected_columns` and `closest_source` (the source its header matches best).",
  })
  error_detail!: Record<string, unknown> | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) cancel_requested_at!: string | null;
  @ApiProperty({ format: 'date-time' }) queued_at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) started_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) finished_at!: string | null;
  @ApiProperty({ type: Number, nullable: true }) duration_ms!: number | null;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Other fields kept with the run (the data set metadata it was read with).' })
  dataset_metadata?: Record<string, unknown>;
}

export class IngestRunLinksDto {
  @ApiProperty({ format: 'uri' }) self!: string;
}

export class ListedIngestRunDto extends IngestRunDto {
  @ApiProperty({ type: IngestRunLinksDto }) _links!: IngestRunLinksDto;
}

export class IngestRunListDto {
  @ApiProperty({ type: [ListedIngestRunDto] }) runs!: ListedIngestRunDto[];
}

export class CancelledRunDto {
  @ApiProperty({ format: 'uuid' }) run_id!: string;
  @ApiProperty({ enum: ['cancelled', 'running', 'retrying'], description: '`cancelled` at once for a run that had not started; a running one stays `running` until it stops.' })
  status!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) cancel_requested_at!: string | null;
}

export class RejectedRowDto {
  @ApiProperty({ description: 'Position in the run\'s quarantine (the list\'s order); the cursor of the next page.' }) id!: string;
  @ApiProperty({ type: Number, nullable: true, description: 'Line of the file (1 is the header), when the row came from a file.' }) line_number!: number | null;
  @ApiProperty({ example: 'missing_record_key' }) reason!: string;
  @ApiProperty({ description: 'The row as it was read.' }) raw!: string;
}

export class RejectedRowListDto {
  @ApiProperty({ type: [RejectedRowDto] }) rows!: RejectedRowDto[];
}

export class ScoringRunDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: ['full', 'incremental', 'backfill'] }) kind!: string;
  @ApiProperty({ example: 'distress_v10_2' }) scorer_id!: string;
  @ApiProperty({ format: 'date' }) as_of!: string;
  @ApiProperty({ enum: ['queued', 'running', 'retrying', 'succeeded', 'failed'] }) status!: string;
  @ApiProperty({ example: 'admin_api' }) trigger!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Buildings scored and failed, grade crossings, the grade distribution.' }) counts!: Record<string, unknown>;
  @ApiProperty({ type: String, nullable: true }) error!: string | null;
  @ApiProperty({ format: 'date-time' }) queued_at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) started_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) finished_at!: string | null;
  @ApiProperty({ type: Number, nullable: true }) duration_ms!: number | null;
}
