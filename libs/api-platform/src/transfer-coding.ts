import type { IncomingMessage } from 'node:http';
import { ApiError } from '@bhis/envelope';

const REFUSED = new ApiError(
  'invalid_request',
  'The request uses a Transfer-Encoding other than chunked: send the body with Content-Length or Transfer-Encoding: chunked.',
  { headers: { Connection: 'close' } },
);

/**
 * A request whose final transfer coding is not `chunked` has no length the server can determine
 * (RFC 9112 section 6.1): it is answered 400 and its connection closed, never dispatched. Node
 * decodes no other coding, so `chunked` alone is accepted (`gzip, chunked` is refused too).
 */
export function refusedTransferCoding(req: IncomingMessage): ApiError | null {
  const coding = req.headers['transfer-encoding'];
  return coding === undefined || /^[ \t]*chunked[ \t]*$/i.test(coding) ? null : REFUSED;
}
