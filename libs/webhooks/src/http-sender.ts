import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedTarget } from './webhook-url';

export interface SendResult {
  /** The HTTP status, or null when no response arrived (connection error, timeout). */
  statusCode: number | null;
  durationMs: number;
  retryAfter: string | undefined;
  error: string | null;
}

const USER_AGENT = 'bhis-webhooks/1';
/** Bytes of a response body read (and discarded) before the connection is closed. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * Connects to the address that was checked, never to a fresh DNS answer for the host: a rebinding DNS
 * server cannot swap in a private address between the check and the connection.
 */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as LookupFunction;
}

/**
 * POSTs one webhook to a checked target. Redirects are not followed (a 3xx is a failed attempt), the
 * whole exchange is bounded by `timeoutMs`, and the response body is drained and ignored.
 */
export function sendWebhookRequest(
  target: ResolvedTarget,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<SendResult> {
  const started = process.hrtime.bigint();
  const elapsed = () => Number((process.hrtime.bigint() - started) / 1_000_000n);
  const { url, host, addresses } = target;
  const pinned = addresses[0];
  const transport = url.protocol === 'https:' ? https : http;

  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    const req = transport.request(
      {
        method: 'POST',
        host,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        lookup: pinnedLookup(pinned.address, pinned.family),
        agent: false,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': USER_AGENT,
        },
      },
      (res) => {
        let received = 0;
        const done = () =>
          finish({
            statusCode: res.statusCode ?? null,
            retryAfter: typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : undefined,
            error: null,
          });
        res.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) {
            done();
            res.destroy();
          }
        });
        res.on('end', done);
        res.on('error', done);
        res.on('close', done);
      },
    );
    const timer = setTimeout(() => {
      finish({ statusCode: null, retryAfter: undefined, error: `no response within ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => {
      finish({ statusCode: null, retryAfter: undefined, error: describeConnectionError(error) });
    });
    req.end(body);
  });
}

const CONNECTION_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'the endpoint refused the connection',
  ECONNRESET: 'the endpoint reset the connection',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the endpoint host is unreachable',
  ENETUNREACH: 'the endpoint network is unreachable',
  EPIPE: 'the endpoint closed the connection',
};

/**
 * What the monitor's owner sees of a failed connection: the code and a fixed sentence, never Node's
 * message (which can name this server's own addresses or its resolver).
 */
export function describeConnectionError(error: NodeJS.ErrnoException): string {
  const code = error.code ?? 'ERROR';
  if (code.startsWith('ERR_TLS') || /CERT|SSL/.test(code)) return `${code}: the endpoint's TLS certificate was not accepted`;
  return `${code}: ${CONNECTION_ERRORS[code] ?? 'the connection failed'}`;
}
