import { applyDecorators, HttpStatus, Type } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiResponse, ApiSecurity, getSchemaPath } from '@nestjs/swagger';
import { ERROR_CODES, ErrorCode } from '@bhis/envelope';

/** The envelope's models, shared by every feature module so the OpenAPI document has one of each. */
export class RateLimitDto {
  @ApiProperty({ example: 6000 }) limit!: number;
  @ApiProperty({ example: 5999 }) remaining!: number;
  @ApiProperty({ example: '2026-11-21T10:01:00.000Z', format: 'date-time' }) reset_at!: string;
}

export class MetaDto {
  @ApiProperty({
    example: 'req_5f0c6b1e9a3d4c2b1a0f9e8d',
    pattern: '^[A-Za-z0-9._:+/=-]{1,128}$',
    description:
      'The id of the request, also in the `X-Request-Id` header: `req_` and 24 hex digits, or the `X-Request-Id` the client sent when it is 1-128 letters, digits and `-_.:+/=`.',
  })
  request_id!: string;
  @ApiProperty({ example: 'v1' }) api_version!: string;
  @ApiProperty({ example: '2026-11-21T10:00:00.000Z', format: 'date-time' }) timestamp!: string;
  @ApiProperty({ type: RateLimitDto, nullable: true }) rate_limit!: RateLimitDto | null;
}

export class PaginationDto {
  @ApiProperty({ example: 25 }) limit!: number;
  @ApiProperty() has_more!: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` to get the next page; null on the last page.' })
  next_cursor!: string | null;
}

export class SelfLinksDto {
  @ApiProperty({ format: 'uri' }) self!: string;
}

/** `_links` of a page of a cursor-paginated list. */
export class PageLinksDto extends SelfLinksDto {
  @ApiPropertyOptional({ format: 'uri', description: 'The next page (this request with `cursor` set to `pagination.next_cursor`); absent on the last page.' })
  next?: string;
}

/** The header of a page that has a next one (RFC 8288), for the responses of cursor-paginated lists. */
export const NEXT_PAGE_HEADERS = {
  Link: {
    description: 'On a page with a next one: `<URL of the next page>; rel="next"` (the URL of `_links.next`).',
    schema: { type: 'string' as const, example: '<https://api.example.org/api/v1/buildings/1000010001/events?limit=25&cursor=eyJm...>; rel="next"' },
  },
};

export class ErrorBodyDto {
  @ApiProperty({ enum: Object.keys(ERROR_CODES), example: 'invalid_bbl' }) code!: string;
  @ApiProperty({ example: 'Invalid BBL "12345": a BBL must be exactly 10 digits.' }) message!: string;
  @ApiProperty({ example: 400 }) status!: number;
  @ApiPropertyOptional({ format: 'uri-reference', example: 'https://bhis.example.org/api-docs.md#error-invalid-request' }) doc_url?: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) details?: Record<string, unknown>;
}

export class ErrorEnvelopeDto {
  @ApiProperty({ type: ErrorBodyDto }) error!: ErrorBodyDto;
  @ApiProperty({ type: MetaDto }) meta!: MetaDto;
}

/** Errors every authenticated endpoint can answer with. */
const COMMON_ERRORS: ErrorCode[] = ['missing_api_key', 'invalid_api_key', 'insufficient_scope', 'rate_limit_exceeded', 'internal_error', 'service_unavailable'];

/** A success response in the envelope, with `data` of the given model. */
export function ApiEnvelopeResponse(model: Type<unknown>, options: { status?: number; description: string; paginated?: boolean }) {
  return applyDecorators(
    ApiExtraModels(model, MetaDto, PaginationDto),
    ApiResponse({
      status: options.status ?? HttpStatus.OK,
      description: options.description,
      ...(options.paginated ? { headers: NEXT_PAGE_HEADERS } : {}),
      schema: {
        type: 'object',
        required: ['data', 'meta', 'pagination', '_links'],
        properties: {
          data: { $ref: getSchemaPath(model) },
          meta: { $ref: getSchemaPath(MetaDto) },
          pagination: options.paginated ? { $ref: getSchemaPath(PaginationDto) } : { type: 'null' },
          _links: { type: 'object', additionalProperties: { type: 'string', format: 'uri' } },
        },
      },
    }),
  );
}

/** One documented response per HTTP status, listing the error codes it carries; plus the common ones. */
export function ApiErrorResponses(...codes: ErrorCode[]) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...codes, ...COMMON_ERRORS]) {
    const status = ERROR_CODES[code].status;
    const list = byStatus.get(status) ?? [];
    if (!list.includes(code)) list.push(code);
    byStatus.set(status, list);
  }
  return applyDecorators(
    ApiExtraModels(ErrorEnvelopeDto),
    ...[...byStatus.entries()].map(([status, list]) =>
      ApiResponse({
        status,
        description: list.map((code) => `\`${code}\`: ${ERROR_CODES[code].summary}`).join('\n\n'),
        schema: { $ref: getSchemaPath(ErrorEnvelopeDto) },
      }),
    ),
  );
}

/** The two ways to present a key: `Authorization: Bearer` (preferred) and `X-API-Key`. */
export function ApiKeyAuth() {
  return applyDecorators(ApiBearerAuth('bearer'), ApiSecurity('api_key'));
}
