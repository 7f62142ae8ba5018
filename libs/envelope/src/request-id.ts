import { randomFillSync } from 'node:crypto';

const ID_BYTES = 12;
/** Random bytes for 512 ids, drawn at once: one call to the CSPRNG instead of one per request. */
const pool = Buffer.alloc(ID_BYTES * 512);
let offset = pool.length;

/** `req_` + 24 lower-case hex characters. */
export function newRequestId(): string {
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const id = pool.toString('hex', offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return `req_${id}`;
}

export const REQUEST_ID_PATTERN = /^req_[0-9a-f]{24}$/;
