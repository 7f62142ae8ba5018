import { createServer as createHttpServer, IncomingMessage } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { PlatformRequestState } from './request-context';

/**
 * Node's request with a field for the platform's state from its construction, so that the front door
 * stores the state with a plain write. Adding a property to a request that lacks it costs V8 a change
 * of the object's shape; removing two such additions from the front door made a 401 ~5% faster
 * (docs/adr/0010-request-pipeline-order.md).
 */
export class PlatformIncomingMessage extends IncomingMessage {
  platform: PlatformRequestState | undefined = undefined;
}

/** Nest's Express adapter whose HTTP or HTTPS server makes its requests as `PlatformIncomingMessage`. */
export class PlatformExpressAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    if (options.forceCloseConnections) throw new Error('forceCloseConnections is not supported: the API closes connections itself (http-server-limits.ts)');
    const requests = { IncomingMessage: PlatformIncomingMessage };
    this.httpServer = options.httpsOptions
      ? createHttpsServer({ ...options.httpsOptions, ...requests }, this.getInstance())
      : createHttpServer(requests, this.getInstance());
  }
}
