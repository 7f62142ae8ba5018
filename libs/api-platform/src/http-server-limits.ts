import type { Server, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { ERROR_CODES, ErrorCode, errorEnvelope, newRequestId } from '@bhis/envelope';
import { docUrlFor } from './errors';
import { applySocketPolicy, SOCKET_POLICY, SocketPolicy } from './socket-policy';

/**
 * Headers must arrive within this time, a whole request (body included) within the second: the body
 * reader answers 408 at REQUEST_TIMEOUT_MS (body-reader.ts); Node's own request timeout, a little
 * later, ends what no reader waits for. Node checks its timeouts every CONNECTIONS_CHECK_MS
 * (its default, 30 s, would enforce a 20 s deadline at 20-50 s).
 */
export const HEADERS_TIMEOUT_MS = 20_000;
export const REQUEST_TIMEOUT_MS = 60_000;
const NODE_REQUEST_TIMEOUT_MS = REQUEST_TIMEOUT_MS + 5_000;
export const CONNECTIONS_CHECK_MS = 1_000;
/** A TLS handshake must be done within this time (Node's default: 120 s). */
export const TLS_HANDSHAKE_TIMEOUT_MS = 10_000;
/** After a refused request the socket reads and discards at most this much, this long, before it is closed. */
const DISCARD_MAX_BYTES = 16 * 1024 * 1024;
const DISCARD_MAX_MS = 30_000;
const LINGER_IDLE_MS = 5_000;

const REASONS: Partial<Record<number, string>> = { 400: 'Bad Request', 405: 'Method Not Allowed', 408: 'Request Timeout' };

/** The error envelope as a raw HTTP/1.1 answer, for requests that never reach Express. */
function rawAnswer(code: ErrorCode, message: string, head = false): string {
  const status = ERROR_CODES[code].status;
  const body = JSON.stringify(errorEnvelope({ requestId: newRequestId(), rateLimit: null }, { code, message, status, doc_url: docUrlFor(code) }));
  return (
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${head ? '' : body}`
  );
}

const closing = new WeakSet<Duplex>();

/**
 * Answers and closes a connection gracefully ("lingering close", RFC 9112 section 9.6): the answer is
 * written and the server's side ended, then what the client still sends is read and thrown away (at most
 * DISCARD_MAX_BYTES, DISCARD_MAX_MS, LINGER_IDLE_MS without a byte) until the client closes its side.
 * A socket destroyed with bytes still arriving is reset by the kernel, and a client that is still
 * sending (a body the server did not wait for) then loses the answer it was about to read.
 */
function answerAndClose(socket: Duplex, answer: string | null): void {
  if (closing.has(socket)) return;
  closing.add(socket);
  // detach the HTTP parser: nothing more is parsed on this socket (adding a 'data' listener below
  // also makes Node stop feeding its parser straight from the socket handle)
  socket.removeAllListeners('data');
  let discarded = 0;
  const timer = setTimeout(() => socket.destroy(), DISCARD_MAX_MS);
  timer.unref();
  socket.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DISCARD_MAX_BYTES) socket.destroy();
  });
  socket.once('close', () => clearTimeout(timer));
  socket.on('end', () => socket.destroy());
  socket.on('error', () => socket.destroy());
  if (socket instanceof Socket) {
    socket.setTimeout(LINGER_IDLE_MS);
    socket.once('timeout', () => socket.destroy());
  }
  if (answer !== null && socket.writable) socket.end(answer);
  else socket.end();
  // the client has closed its side already: nothing is left to read once the answer is out
  if (socket.readableEnded) socket.once('finish', () => socket.destroy());
  socket.resume();
}

/** The latest response of a connection, kept on its socket (set by the request context middleware for every request). */
const LATEST_RESPONSE = Symbol('latest response');
type NotedSocket = Duplex & { [LATEST_RESPONSE]?: ServerResponse };

export function noteResponse(res: ServerResponse): void {
  // a property of the socket, not a WeakMap entry: one less allocation the collector tracks per request
  if (res.socket) (res.socket as NotedSocket)[LATEST_RESPONSE] = res;
}

/**
 * Answers bytes the parser refused once the connection's latest response is written. Such bytes can
 * follow a complete request (a body sent without a length is read as the start of the next request):
 * that request is answered first, as Node's own handler does, and the 400 follows only if that answer
 * kept the connection open (Node closes it after a parse error, so in practice the connection is just
 * closed); bytes after a `Connection: close` answer would be read by the client as a broken one.
 */
function afterLatestResponse(socket: Duplex, answer: string): void {
  const latest = (socket as NotedSocket)[LATEST_RESPONSE];
  if (!latest) {
    answerAndClose(socket, answer);
    return;
  }
  if (!latest.writableEnded && !latest.destroyed && !latest.req.complete) {
    // the request under way can never be completed (its client hung up mid-body, or it is past its
    // deadline) and is not answered yet: waiting for its answer would keep the socket, half closed,
    // and its memory for good
    if (latest.headersSent) socket.destroy();
    else answerAndClose(socket, answer);
    return;
  }
  socket.removeAllListeners('data'); // nothing more is parsed on this socket
  // answerAndClose acts once per socket: 'finish' and 'close' may both come
  const close = (): void => answerAndClose(socket, latest.shouldKeepAlive && !latest.destroyed ? answer : null);
  if (latest.writableFinished || latest.destroyed) close();
  else {
    latest.once('finish', close);
    latest.once('close', close);
  }
}

/**
 * Limits and answers of the HTTP server itself: header and request timeouts against slow clients,
 * the socket policy (idle connections, connections per address; socket-policy.ts), and error
 * envelopes instead of bare resets for what Node's parser refuses (headers over 16 KiB, malformed
 * requests: 400 invalid_request; timeouts: 408 request_timeout) and for CONNECT (405), which no
 * route serves. `exempt`: addresses the per-address connection cap does not apply to.
 */
export function hardenHttpServer(server: Server, policy: SocketPolicy = SOCKET_POLICY, exempt?: (address: string) => boolean): void {
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = NODE_REQUEST_TIMEOUT_MS;
  applySocketPolicy(server, policy, exempt);
  // Node destroys a connection as soon as a `Connection: close` answer is written (its only call of
  // destroySoon); the connection is closed gracefully instead, as after a refused request
  server.on('connection', (socket: Socket) => {
    socket.destroySoon = () => answerAndClose(socket, null);
  });
  const handled = new WeakSet<Duplex>();
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (handled.has(socket)) return;
    handled.add(socket);
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    // the answer to a HEAD request has no body (the client would read it as garbage)
    const head = (error as { rawPacket?: Buffer }).rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      const message = `The request was not received in time: headers within ${HEADERS_TIMEOUT_MS / 1000} s, the whole request within ${REQUEST_TIMEOUT_MS / 1000} s.`;
      afterLatestResponse(socket, rawAnswer('request_timeout', message, head));
      return;
    }
    const message = error.code === 'HPE_HEADER_OVERFLOW' ? 'The request headers are larger than 16 KiB.' : 'The request is not valid HTTP/1.1.';
    afterLatestResponse(socket, rawAnswer('invalid_request', message, head));
  });
  server.on('connect', (_req: unknown, socket: Duplex) => {
    answerAndClose(socket, rawAnswer('method_not_allowed', 'CONNECT is not allowed on this server.'));
  });
}
