import { ValidationError, ValidationPipe } from '@nestjs/common';
import { ApiError } from '@bhis/envelope';

function describe(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((e) => {
    const path = parent ? `${parent}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((m) => (m.startsWith(e.property) ? m.replace(e.property, `"${path}"`) : `"${path}": ${m}`));
    return [...own, ...describe(e.children ?? [], path)];
  });
}

/** DTO validation: unknown properties are refused, messages name the parameter. */
export function apiValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: true,
    exceptionFactory: (errors) => new ApiError('invalid_request', describe(errors).join('; ') || 'Invalid request.'),
  });
}
