import { ErrorCode, statusOf } from './error-codes';

/** The one exception type the API throws on purpose: it carries a machine-readable code. */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: { headers?: Record<string, string>; details?: Record<string, unknown> } = {},
  ) {
    // an answer to the client, not a fault: capturing a stack trace would only cost time on every 4xx
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'ApiError';
    this.status = statusOf(code);
  }
}
