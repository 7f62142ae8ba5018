import { BadRequestException, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { ApiError } from '@bhis/envelope';
import { isUnavailableError, toApiError } from './errors';

describe('toApiError', () => {
  it('keeps ApiErrors', () => {
    const error = new ApiError('invalid_bbl', 'x');
    expect(toApiError(error)).toBe(error);
  });

  it('maps connection failures of Postgres and Redis to service_unavailable', () => {
    for (const error of [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]),
    ]) {
      expect(isUnavailableError(error)).toBe(true);
      expect(toApiError(error).code).toBe('service_unavailable');
    }
  });

  it('maps framework exceptions by status and hides everything else', () => {
    expect(toApiError(new NotFoundException()).code).toBe('not_found');
    expect(toApiError(new PayloadTooLargeException()).code).toBe('payload_too_large');
    expect(toApiError(new BadRequestException('limit must be a number')).message).toBe('limit must be a number');
    const hidden = toApiError(new Error('relation "secret_table" does not exist'));
    expect(hidden.code).toBe('internal_error');
    expect(hidden.message).not.toContain('secret_table');
    expect(toApiError(Object.assign(new Error('syntax error'), { code: '42601' })).code).toBe('internal_error');
  });
});
