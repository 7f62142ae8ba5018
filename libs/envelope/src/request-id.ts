import { randomBytes } from 'node:crypto';

/** `req_` + 24 lower-case hex characters. */
export function newRequestId(): string {
  return `req_${randomBytes(12).toString('hex')}`;
}

export const REQUEST_ID_PATTERN = /^req_[0-9a-f]{24}$/;
