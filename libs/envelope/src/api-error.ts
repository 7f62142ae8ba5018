import { ErrorCode, statusOf } from './error-codes';

/** The one exception type the API throws on purpose: it carries a machine-readable code. */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: { headers?: Record<string, string>; details?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = statusOf(code);
  }
}
