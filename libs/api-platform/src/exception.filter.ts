import { ArgumentsHost, Catch, ExceptionFilter, Injectable, NotFoundException } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Request, Response } from 'express';
import type pino from 'pino';
import { ApiError } from '@bhis/envelope';
import { sendError, toApiError } from './errors';
import type { PlatformRequest } from './request-context';

interface RouteLayer {
  route?: { path: string; methods: Record<string, boolean> };
  match(path: string): boolean;
}

/** The one global exception filter: every thrown error becomes the error envelope. */
@Catch()
@Injectable()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly logger: pino.Logger,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
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
    sendError(req, res, error);
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
