import { ArgumentsHost, Catch, ExceptionFilter, Injectable, NotFoundException } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Request, Response } from 'express';
import type pino from 'pino';
import { ApiError } from '@bhis/envelope';
import { drainRequest, hasBody } from './body-reader';
import { sendError, toApiError } from './errors';
import type { PlatformRequest } from './request-context';
import type { RequestContextStep } from './request-context.middleware';

interface RouteLayer {
  route?: { path: string; methods: Record<string, boolean> };
  match(path: string): boolean;
}

/**
 * Sends the error envelope; an error that cannot be written (a header value Node refuses) is answered
 * 500, or the connection closed when a head is out already: nothing may escape as an unhandled rejection.
 */
function answer(req: Request, res: Response, error: ApiError): void {
  try {
    sendError(req, res, error);
  } catch {
    try {
      if (res.headersSent) res.destroy();
      else sendError(req, res, toApiError(null));
    } catch {
      res.destroy();
    }
  }
}

/**
 * The one global exception filter: every thrown error becomes the error envelope, from the request
 * pipeline's middleware, guards, interceptors and pipes as from the controllers. A refused request
 * whose body was not read (a 401, 403, 404 or 429 decided before it) is answered once its body has been
 * read and thrown away (bounded, body-reader.ts), so the client reads the answer instead of a reset
 * connection.
 */
@Catch()
@Injectable()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly logger: pino.Logger,
    private readonly context: RequestContextStep,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    this.context.begin(req, res);
    let error = toApiError(exception);
    if (exception instanceof NotFoundException && !(exception instanceof ApiError)) {
      error = this.notFoundOrWrongMethod(req);
    }
    if (error.code === 'internal_error' || error.code === 'service_unavailable') {
      this.logger.error(
        { req_id: (req as Partial<PlatformRequest>).platform?.requestId, err: exception },
        error.code === 'internal_error' ? 'unhandled error' : 'backing service unavailable',
      );
    }
    const state = (req as Partial<PlatformRequest>).platform;
    if (state !== undefined && !state.bodySettled && hasBody(req) && !res.headersSent) {
      state.bodySettled = true;
      void drainRequest(req).then(() => answer(req, res, error));
    } else answer(req, res, error);
  }

  /** An unknown path is 404; a known path with another method is 405 with an Allow header. */
  private notFoundOrWrongMethod(req: Request): ApiError {
    const router = (this.adapterHost.httpAdapter.getInstance() as { router?: { stack: RouteLayer[] } }).router;
    const allowed = new Set<string>();
    for (const layer of router?.stack ?? []) {
      // wildcard routes (catch-alls registered by the framework) say nothing about this path
      if (layer.route && !layer.route.path.includes('*') && layer.match(req.path)) {
        for (const [method, on] of Object.entries(layer.route.methods)) if (on) allowed.add(method.toUpperCase());
      }
    }
    if (allowed.size > 0 && !allowed.has(req.method)) {
      if (allowed.has('GET')) allowed.add('HEAD');
      const allow = [...allowed].sort().join(', ');
      return new ApiError('method_not_allowed', `${req.method} is not allowed on ${req.path}; allowed: ${allow}.`, {
        headers: { Allow: allow },
      });
    }
    return new ApiError('not_found', `No route matches ${req.method} ${req.path}.`);
  }
}
