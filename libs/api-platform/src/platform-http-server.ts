import { createServer as createHttpServer, IncomingMessage, OutgoingHttpHeader, OutgoingHttpHeaders, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';
import { CONNECTIONS_CHECK_MS, TLS_HANDSHAKE_TIMEOUT_MS } from './http-server-limits';
import type { PlatformRequestState } from './request-context';
import { WrittenAnswer } from './written-answer';
import { withNextPageLink } from './pagination-links';
import { platformHeaders } from './response-head';

/**
 * At shutdown the server stops accepting connections and closes the idle ones at once; requests
 * under way get this long to finish (a stalled client never would), then every connection is closed.
 */
export const SHUTDOWN_GRACE_MS = 5_000;

/**
 * Node's request with a field for the platform's state from its construction, so that the request
 * context middleware stores the state with a plain write. Adding a property to a request that lacks it
 * costs V8 a change of the object's shape (docs/adr/0010-request-pipeline-order.md).
 */
export class PlatformIncomingMessage extends IncomingMessage {
  platform: PlatformRequestState | undefined = undefined;
}

/**
 * `writeHead` of the API's responses: it writes the platform's headers (request id, security headers,
 * rate-limit cost and status, CORS) with the head, whoever writes the answer. They are kept in the
 * request's state until then, so a charge made after the request context (the body's, an export's
 * rows) sets no header twice, and an answer written with one `writeHead(status, [name, value, ...])`
 * (json-text.ts) has Node validate each header once and keep no header map. The answer's own headers
 * win over a platform header of the same name (the cost a 429 names). Installed on the Express app's
 * response prototype (Express gives every response that prototype, whatever class Node made it with).
 */
function writePlatformHead(
  this: ServerResponse,
  statusCode: number,
  reason?: string | OutgoingHttpHeaders | OutgoingHttpHeader[],
  headers?: OutgoingHttpHeaders | OutgoingHttpHeader[],
): ServerResponse {
  const state = (this.req as IncomingMessage & Partial<PlatformIncomingMessage>).platform;
  const own = typeof reason === 'string' ? headers : reason;
  let head: OutgoingHttpHeaders | OutgoingHttpHeader[] | undefined = own;
  if (state !== undefined) {
    if (own === undefined || Array.isArray(own)) head = platformHeaders(state, (own ?? []) as readonly string[], this);
    else {
      const platform = platformHeaders(state, [], this);
      for (let i = 0; i < platform.length; i += 2) if (!((platform[i] as string) in own)) this.setHeader(platform[i] as string, platform[i + 1] as string);
    }
  }
  return typeof reason === 'string' ? WRITE_HEAD.call(this, statusCode, reason, head) : WRITE_HEAD.call(this, statusCode, head);
}

const WRITE_HEAD = ServerResponse.prototype.writeHead as (this: ServerResponse, statusCode: number, ...rest: unknown[]) => ServerResponse;

/**
 * Nest's Express adapter whose HTTP or HTTPS server makes its requests as `PlatformIncomingMessage` and
 * its responses write the platform's headers with their head (`writePlatformHead`), checks its header and request deadlines every second,
 * bounds TLS handshakes, and closes within SHUTDOWN_GRACE_MS at shutdown.
 */
export class PlatformExpressAdapter extends ExpressAdapter {
  /** PUBLIC_BASE_URL: the base of the next-page links of the answers. */
  constructor(
    instance: unknown,
    private readonly publicBaseUrl: string | undefined = undefined,
  ) {
    super(instance);
  }

  override initHttpServer(options: NestApplicationOptions): void {
    if (options.forceCloseConnections) throw new Error('forceCloseConnections is not supported: the API closes connections itself (http-server-limits.ts)');
    (this.getInstance() as { response: { writeHead: unknown } }).response.writeHead = writePlatformHead;
    const serverOptions = {
      IncomingMessage: PlatformIncomingMessage,
      connectionsCheckingInterval: CONNECTIONS_CHECK_MS,
    };
    this.httpServer = options.httpsOptions
      ? createHttpsServer({ handshakeTimeout: TLS_HANDSHAKE_TIMEOUT_MS, ...options.httpsOptions, ...serverOptions }, this.getInstance())
      : createHttpServer(serverOptions, this.getInstance());
  }

  /**
   * The one response path of what controllers return: a `WrittenAnswer` writes itself; any other
   * value gets its next-page link (pagination-links.ts) and is written as Nest writes it.
   */
  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (body instanceof WrittenAnswer) {
      body.write(response.req, response);
      return undefined;
    }
    return super.reply(response, withNextPageLink(response.req, response, body, this.publicBaseUrl), statusCode);
  }

  override close(): Promise<unknown> | undefined {
    const server = this.httpServer as Server | undefined;
    if (!server) return undefined;
    const closed = new Promise((resolve) => server.close(resolve));
    server.closeIdleConnections();
    const grace = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    grace.unref();
    return closed.finally(() => clearTimeout(grace));
  }
}
