import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiResponse, ApiSecurity } from '@nestjs/swagger';
import { ERROR_CODES, ErrorCode } from '@bhis/envelope';
import { ErrorEnvelopeDto } from '../dto/envelope.dto';

/** Documents the error responses of an endpoint, one per status, naming the codes that share it. */
export function ApiErrors(...codes: ErrorCode[]) {
  const all: ErrorCode[] = [...codes, 'missing_api_key', 'invalid_api_key', 'insufficient_scope', 'rate_limit_exceeded', 'internal_error', 'service_unavailable'];
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(all)) byStatus.set(ERROR_CODES[code].status, [...(byStatus.get(ERROR_CODES[code].status) ?? []), code]);
  return applyDecorators(
    ...[...byStatus].map(([status, list]) =>
      ApiResponse({ status, type: ErrorEnvelopeDto, description: list.map((code) => `\`${code}\`: ${ERROR_CODES[code].summary}`).join(' ') }),
    ),
  );
}

/** Both ways of presenting a key. */
export function ApiKeyAuth() {
  return applyDecorators(ApiBearerAuth(), ApiSecurity('api_key'));
}
