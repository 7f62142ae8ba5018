import { hostname } from 'node:os';
import type { Request, Response } from 'express';
import pino from 'pino';
import { platformState, ResponseFinished } from './request-context';

const LEVELS = { info: 30, error: 50 } as const;

/**
 * One JSON line per finished request at `info` (5xx at `error`), with the request id, the key prefix
 * (never the key) and the time taken. Called once the response is sent (request-context.middleware.ts); costs
 * nothing when the level is above `info`: no per-request child logger is made (the reason this is
 * not pino-http).
 *
 * The line is the one pino would write (level, time, pid, hostname, the logger's bindings, the fields,
 * msg), composed here and written to `destination`: pino's generic serialisation was the larger part
 * of a cached lookup's logging cost (docs/benchmarks.md). Every value that is not a number, a method or
 * a name the service made itself goes through JSON.stringify. It is given the destination the logger
 * writes to (`LOG_DESTINATION`), so that both keep one order and one buffer.
 */
export function accessLog(logger: pino.Logger, destination: pino.DestinationStream): ResponseFinished {
  // `,"pid":…,"hostname":…` and any child bindings, as pino writes them with its default base
  const bindings = `,${JSON.stringify({ pid: process.pid, hostname: hostname(), ...logger.bindings() }).slice(1, -1)}`;
  return (req: Request, res: Response): void => {
    const level = res.statusCode >= 500 ? 'error' : 'info';
    if (!logger.isLevelEnabled(level)) return;
    const state = platformState(req);
    const ms = Math.round(Number(process.hrtime.bigint() - state.startedAt) / 1e4) / 100;
    const key = state.auth.state === 'valid' ? `,"key_prefix":${JSON.stringify(state.auth.key.prefix)}` : '';
    const trace = state.trace === null ? '' : `,"trace_id":"${state.trace.traceId}","parent_id":"${state.trace.parentId}"`;
    destination.write(
      // request ids are made by the service or checked to hold no character to escape (trace-context.ts),
      // trace ids are hex and methods are tokens Node's parser knows: nothing to escape
      `{"level":${LEVELS[level]},"time":${Date.now()}${bindings},"req_id":"${state.requestId}"${trace},` +
        `"req":{"method":"${req.method}","url":${JSON.stringify(req.originalUrl ?? req.url)}},` +
        `"res":{"statusCode":${res.statusCode}},"responseTime":${ms}${key},"msg":"request completed"}\n`,
    );
  };
}
