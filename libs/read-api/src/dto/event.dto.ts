import { ApiProperty } from '@nestjs/swagger';
import { CATEGORIES, EVENT_STATUSES, EVENT_TYPES, SEVERITIES } from '@bhis/domain';
import { MetaDto, PaginationDto } from '@bhis/api-platform';
import { BuildingPageLinksDto } from './envelope.dto';

export class EventDto {
  @ApiProperty({ example: '184467', description: 'Event id (a string: ids exceed the safe integer range of some clients).' }) id!: string;
  @ApiProperty({ example: 'hpd_violations', description: 'Source key (see GET /sources).' }) source!: string;
  @ApiProperty({ example: '15123456', description: "The record's id at the source." }) source_record_id!: string;
  @ApiProperty({ enum: CATEGORIES }) category!: string;
  @ApiProperty({ enum: SEVERITIES }) severity!: string;
  @ApiProperty({ enum: EVENT_TYPES }) event_type!: string;
  @ApiProperty({ enum: EVENT_STATUSES, nullable: true, type: String }) status!: string | null;
  @ApiProperty({ type: String, format: 'date', nullable: true }) occurred_on!: string | null;
  @ApiProperty({ type: String, format: 'date', nullable: true }) closed_on!: string | null;
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty({
    type: String,
    format: 'uri',
    nullable: true,
    description: "The record on the publisher's site: HPD Online building page, DOB BIS property profile, or the source's Open Data set.",
  })
  source_url!: string | null;
  @ApiProperty({ type: Object, additionalProperties: true, description: 'Source-specific fields.' }) attributes!: Record<string, unknown>;
}

export class EventsDataDto {
  @ApiProperty({ example: '1000010001' }) bbl!: string;
  @ApiProperty({ type: [EventDto], description: 'Newest first (undated events last).' }) events!: EventDto[];
}

export class EventsEnvelopeDto {
  @ApiProperty({ type: EventsDataDto }) data!: EventsDataDto;
  @ApiProperty({ type: MetaDto }) meta!: MetaDto;
  @ApiProperty({ type: PaginationDto }) pagination!: PaginationDto;
  @ApiProperty({ type: BuildingPageLinksDto }) _links!: BuildingPageLinksDto;
}

export class EventLinksDto {
  @ApiProperty({ format: 'uri' }) self!: string;
  @ApiProperty({ format: 'uri', description: "The building's events list." }) events!: string;
  @ApiProperty({ format: 'uri' }) building!: string;
}

export class EventEnvelopeDto {
  @ApiProperty({ type: EventDto }) data!: EventDto;
  @ApiProperty({ type: MetaDto }) meta!: MetaDto;
  @ApiProperty({ type: Object, nullable: true, example: null, description: 'Always null for a single event.' }) pagination!: null;
  @ApiProperty({ type: EventLinksDto }) _links!: EventLinksDto;
}
