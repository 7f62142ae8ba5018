import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMinSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength, ValidateIf } from 'class-validator';
import { GRADES } from '@bhis/domain';
import { MAX_WEBHOOK_URL_LENGTH } from '@bhis/webhooks';
import { PORTFOLIO_BBL_LIMIT } from '../bbl-list';

export const MONITOR_NAME_MAX = 100;

/** Present in the body (null included, which the field's own rule then refuses). */
const sent = (field: string) => ValidateIf((o: Record<string, unknown>) => o[field] !== undefined);

export class CreateMonitorDto {
  @ApiProperty({ minLength: 1, maxLength: MONITOR_NAME_MAX, example: 'Bronx portfolio' })
  @IsString()
  @MinLength(1)
  @MaxLength(MONITOR_NAME_MAX)
  name!: string;

  @ApiPropertyOptional({ type: [String], minItems: 1, maxItems: PORTFOLIO_BBL_LIMIT, example: ['2012340001', '2012340002'], description: 'Either this or `portfolio_id`.' })
  @sent('bbls')
  @IsArray()
  @ArrayMinSize(1)
  bbls?: unknown[];

  @ApiPropertyOptional({
    example: 'pf_331931',
    maxLength: 40,
    description:
      "A landlord portfolio to follow in place of `bbls`: the monitor watches the portfolio's buildings, set again at every rebuild of the portfolios. Unknown: 404 portfolio_not_found.",
  })
  @sent('portfolio_id')
  @IsString()
  @MaxLength(40)
  portfolio_id?: string;

  @ApiProperty({
    example: 'https://example.com/hooks/bhis',
    maxLength: MAX_WEBHOOK_URL_LENGTH,
    description: 'http(s) URL on a public address; private, loopback, link-local and similar targets are refused.',
  })
  @IsString()
  @MaxLength(MAX_WEBHOOK_URL_LENGTH)
  webhook_url!: string;

  @ApiPropertyOptional({
    type: [String],
    enum: GRADES,
    example: ['D', 'F'],
    description: 'Notify when a building enters or leaves these grades. Omitted: any grade change.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @IsIn(GRADES, { each: true, message: 'each value in grades must be one of A, B, C, D, F' })
  grades?: string[];

  @ApiPropertyOptional({
    default: false,
    description:
      'Also notify of buildings the model cannot know (flags public-housing, units-unknown: lowest confidence, grade held between B and D). Grade changes caused only by a stale source are never sent.',
  })
  @IsOptional()
  @IsBoolean({ message: 'include_uncertain must be a boolean' })
  include_uncertain?: boolean;
}

export class UpdateMonitorDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: MONITOR_NAME_MAX, example: 'Bronx portfolio' })
  @sent('name')
  @IsString()
  @MinLength(1)
  @MaxLength(MONITOR_NAME_MAX)
  name?: string;

  @ApiPropertyOptional({ type: [String], minItems: 1, maxItems: PORTFOLIO_BBL_LIMIT, example: ['2012340001', '2012340003'], description: "Replaces the monitor's buildings (a monitor that followed a portfolio stops following it)." })
  @sent('bbls')
  @IsArray()
  @ArrayMinSize(1)
  bbls?: unknown[];

  @ApiPropertyOptional({ example: 'pf_331931', maxLength: 40, description: "Follow this landlord portfolio from now on: its buildings replace the monitor's." })
  @sent('portfolio_id')
  @IsString()
  @MaxLength(40)
  portfolio_id?: string;

  @ApiPropertyOptional({ example: 'https://example.com/hooks/bhis', maxLength: MAX_WEBHOOK_URL_LENGTH, description: 'As at creation: https on a public address.' })
  @sent('webhook_url')
  @IsString()
  @MaxLength(MAX_WEBHOOK_URL_LENGTH)
  webhook_url?: string;

  @ApiPropertyOptional({ type: [String], enum: GRADES, nullable: true, example: ['D', 'F'], description: 'null: any grade change.' })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @IsIn(GRADES, { each: true, message: 'each value in grades must be one of A, B, C, D, F' })
  grades?: string[] | null;

  @ApiPropertyOptional()
  @sent('include_uncertain')
  @IsBoolean({ message: 'include_uncertain must be a boolean' })
  include_uncertain?: boolean;

  @ApiPropertyOptional({ description: 'false: nothing is sent and pending deliveries are cancelled; true: active again, whatever disabled it.' })
  @sent('enabled')
  @IsBoolean({ message: 'enabled must be a boolean' })
  enabled?: boolean;
}

/** The longest overlap of a rotated secret: a week. */
export const SECRET_OVERLAP_MAX_SECONDS = 7 * 24 * 3600;
export const SECRET_OVERLAP_DEFAULT_SECONDS = 24 * 3600;

export class RotateSecretDto {
  @ApiPropertyOptional({
    minimum: 0,
    maximum: SECRET_OVERLAP_MAX_SECONDS,
    default: SECRET_OVERLAP_DEFAULT_SECONDS,
    description: 'Seconds during which deliveries are signed with both the new and the replaced secret (0: the new one alone at once).',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(SECRET_OVERLAP_MAX_SECONDS)
  overlap_seconds?: number;
}

export class ListQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 25 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @ApiPropertyOptional({ description: 'next_cursor of the previous page.' })
  @IsOptional()
  @IsString()
  cursor?: string;
}

/** BBLs per page of `GET /portfolio/monitor/{id}`: a tenth of the most a monitor holds. */
export const MONITOR_BBLS_PAGE_MAX = 1000;

export class MonitorBblsQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: MONITOR_BBLS_PAGE_MAX, default: MONITOR_BBLS_PAGE_MAX, description: 'BBLs per page.' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MONITOR_BBLS_PAGE_MAX)
  limit?: number;

  @ApiPropertyOptional({ description: 'next_cursor of the previous page of BBLs.' })
  @IsOptional()
  @IsString()
  cursor?: string;
}

export class MonitorDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() webhook_url!: string;
  @ApiProperty({ type: [String], nullable: true, enum: GRADES, description: 'null: any grade change.' }) grades!: string[] | null;
  @ApiProperty({ description: 'Also notified of buildings the model cannot know (public-housing, units-unknown).' }) include_uncertain!: boolean;
  @ApiProperty() bbl_count!: number;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'pf_331931',
    description: "The landlord portfolio the monitor follows (its buildings are the portfolio's current ones); null for a fixed BBL list.",
  })
  portfolio_id!: string | null;
  @ApiProperty({ enum: ['active', 'disabled'] }) status!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date-time',
    description: 'Until then deliveries carry a signature of the secret the last rotation replaced as well; null when none.',
  })
  previous_secret_expires_at!: string | null;
  @ApiProperty({ type: String, nullable: true }) disabled_reason!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) disabled_at!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string', format: 'uri' } }) _links!: Record<string, string>;
}

export class MonitorDetailDto extends MonitorDto {
  @ApiProperty({ type: [String] }) bbls!: string[];
}

export class CreatedMonitorDto {
  @ApiProperty({ type: MonitorDetailDto }) monitor!: MonitorDetailDto;
  @ApiProperty({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: 'Standard Webhooks signing secret. Shown only in this response: store it now.',
  })
  secret!: string;
}

export class UpdatedMonitorDto {
  @ApiProperty({ type: MonitorDto }) monitor!: MonitorDto;
}

export class RotatedSecretDto {
  @ApiProperty({ type: MonitorDto }) monitor!: MonitorDto;
  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', description: 'The new signing secret. Shown only in this response.' })
  secret!: string;
}

export class MonitorEnvelopeDataDto {
  @ApiProperty({ type: MonitorDetailDto }) monitor!: MonitorDetailDto;
}

export class MonitorListDto {
  @ApiProperty({ type: [MonitorDto] }) monitors!: MonitorDto[];
}

export class DeletedMonitorDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ example: true }) deleted!: boolean;
}

export class TestDeliveryDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ example: 'msg_3f1c0b5e9d8a4c2b8e7f6a5d4c3b2a10', description: 'The webhook-id header of this event.' }) webhook_id!: string;
  @ApiProperty({ example: 'monitor.test' }) event_type!: string;
  @ApiProperty({ example: 'pending' }) status!: string;
}

export class TestDeliveryEnvelopeDataDto {
  @ApiProperty({ type: TestDeliveryDto }) delivery!: TestDeliveryDto;
}

export class DeliveryAttemptDto {
  @ApiProperty() attempt!: number;
  @ApiProperty({ format: 'date-time' }) started_at!: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) finished_at!: string | null;
  @ApiProperty({ type: String, nullable: true, enum: ['delivered', 'retry', 'failed', 'gone', 'interrupted'] }) outcome!: string | null;
  @ApiProperty({ type: Number, nullable: true }) status_code!: number | null;
  @ApiProperty({ type: Number, nullable: true }) duration_ms!: number | null;
  @ApiProperty({ type: String, nullable: true }) error!: string | null;
}

export class DeliveryDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() webhook_id!: string;
  @ApiProperty({ enum: ['building.grade_changed', 'monitor.test'] }) event_type!: string;
  @ApiProperty({ type: String, nullable: true }) bbl!: string | null;
  @ApiProperty({ enum: ['pending', 'delivered', 'failed', 'cancelled'] }) status!: string;
  @ApiProperty() attempts!: number;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) next_attempt_at!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) delivered_at!: string | null;
  @ApiProperty({ type: Number, nullable: true }) last_status_code!: number | null;
  @ApiProperty({ type: String, nullable: true }) last_error!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: [DeliveryAttemptDto] }) attempt_log!: DeliveryAttemptDto[];
}

export class DeliveryListDto {
  @ApiProperty({ type: [DeliveryDto] }) deliveries!: DeliveryDto[];
}
