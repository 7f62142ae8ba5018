import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type pino from 'pino';
import type { AppConfig } from '@bhis/config';
import { newRequestId } from '@bhis/envelope';
import { accessLog } from './access-log';
import { noteResponse } from './http-server-limits';
import { ApiMetrics } from './metrics';
import type { PlatformRequest, PlatformRequestState, ResponseFinished } from './request-context';
import { CONFIG, LOG_DESTINATION, PINO_LOGGER } from './tokens';
import { acceptedRequestId, parseTraceParent } from './trace-context';
import { refusedTransferCoding } from './transfer-coding';

/** The one `finish` listener of every response (no closure per request; Node sets `res.req`). */
function finished(this: Response): void {
  for (const done of (this.req as PlatformRequest).platform.onFinish) done(this.req, this);
}

/**
 * The first step of every request: its id (the client's `X-Request-Id` when it is an acceptable one,
 * else a new one), its timer, the client's trace context and what runs once it is answered (access
 * log, metrics). The platform's headers are written with the answer's head (platform-http-server.ts).
 * A request whose body length cannot be known (a transfer coding other than chunked) is refused here,
 * before anything else is done with it.
 */
@Injectable()
export class RequestContextStep {
  private readonly onFinish: readonly ResponseFinished[];
  private readonly publicBaseUrl: string | undefined;

  constructor(
    @Inject(CONFIG) config: AppConfig,
    @Inject(PINO_LOGGER) logger: pino.Logger,
    @Inject(LOG_DESTINATION) logDestination: pino.DestinationStream,
    metrics: ApiMetrics,
  ) {
    this.onFinish = [accessLog(logger, logDestination), metrics.recordRequest];
    this.publicBaseUrl = config.PUBLIC_BASE_URL;
  }

  run(req: Request, res: Response): void {
    this.begin(req, res);
    const refused = refusedTransferCoding(req);
    if (refused) throw refused;
  }

  /**
   * Gives the request its state, once. The exception filter calls it too, for a request the router
   * refused before the platform middleware ran (a path that does not decode).
   */
  begin(req: Request, res: Response): void {
    if ((req as Partial<PlatformRequest>).platform) return;
    const headers = req.headers;
    const state: PlatformRequestState = {
      requestId: acceptedRequestId(headers['x-request-id']) ?? newRequestId(),
      startedAt: process.hrtime.bigint(),
      auth: { state: 'none' },
      rateLimit: null,
      cost: 0,
      // every field from the start: a field added later would change the object's shape
      route: undefined,
      bodySettled: false,
      onFinish: this.onFinish,
      publicBaseUrl: this.publicBaseUrl,
      cors: null,
      trace: headers.traceparent === undefined ? null : parseTraceParent(headers.traceparent),
    };
    (req as PlatformRequest).platform = state;
    noteResponse(res);
    res.on('finish', finished);
  }
}
