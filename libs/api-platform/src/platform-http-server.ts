import { createServer as createHttpServer, IncomingMessage, Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import { CONNECTIONS_CHECK_MS, TLS_HANDSHAKE_TIMEOUT_MS } from './http-server-limits';
import type { PlatformRequestState } from './request-context';

/**
 * At shutdown the server stops accepting connections and closes the idle ones at once; requests
 * under way get this long to finish (a stalled client never would), then every connection is closed.
 */
export const SHUTDOWN_GRACE_MS = 5_000;

/**
 * Node's request with a field for the platform's state from its construction, so that the front door
 * stores the state with a plain write. Adding a property to a request that lacks it costs V8 a change
 * of the object's shape; removing two such additions from the front door made a 401 ~5% faster
 * (docs/adr/0010-request-pipeline-order.md).
 */
export class PlatformIncomingMessage extends IncomingMessage {
  platform: PlatformRequestState | undefined = undefined;
}

/**
 * Nest's Express adapter whose HTTP or HTTPS server makes its requests as `PlatformIncomingMessage`,
 * checks its header and request deadlines every second, bounds TLS handshakes, and closes within
 * SHUTDOWN_GRACE_MS at shutdown.
 */
export class PlatformExpressAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    if (options.forceCloseConnections) throw new Error('forceCloseConnections is not supported: the API closes connections itself (http-server-limits.ts)');
    const serverOptions = { IncomingMessage: PlatformIncomingMessage, connectionsCheckingInterval: CONNECTIONS_CHECK_MS };
    this.httpServer = options.httpsOptions
      ? createHttpsServer({ handshakeTimeout: TLS_HANDSHAKE_TIMEOUT_MS, ...options.httpsOptions, ...serverOptions }, this.getInstance())
      : createHttpServer(serverOptions, this.getInstance());
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
