import type { Request, Response } from 'express';
import type pino from 'pino';
import { platformState, ResponseFinished } from './request-context';

/**
 * One JSON line per finished request at `info` (5xx at `error`), with the request id, the key prefix
 * (never the key) and the time taken. Called by the pipeline once the response is sent; costs
 * nothing when the level is above `info`: no per-request child logger is made (the reason this is
 * not pino-http).
 */
export function accessLog(logger: pino.Logger): ResponseFinished {
  return (req: Request, res: Response): void => {
    if (!logger.isLevelEnabled('info')) return;
    const state = platformState(req);
    const level = res.statusCode >= 500 ? 'error' : 'info';
    logger[level](
      {
        req_id: state.requestId,
        req: { method: req.method, url: req.originalUrl },
        res: { statusCode: res.statusCode },
        responseTime: Math.round(Number(process.hrtime.bigint() - state.startedAt) / 1e4) / 100,
        ...(state.auth.state === 'valid' ? { key_prefix: state.auth.key.prefix } : {}),
      },
      'request completed',
    );
  };
}
