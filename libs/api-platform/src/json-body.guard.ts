import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { Request } from 'express';
import { ApiError } from '@bhis/envelope';
import { drainRequest, hasBody, readJsonBody } from './body-reader';
import { REQUEST_TIMEOUT_MS } from './http-server-limits';
import { ApiMetrics } from './metrics';
import { PlatformRequest, PlatformRequestState } from './request-context';
import { RequestCharges } from './request-charges';
import { maxBodyBytes, requestCost, routeCostOf } from './route-costs';

/** What is left of the request's deadline (REQUEST_TIMEOUT_MS from its start) for its body. */
function timeLeftMs(state: PlatformRequestState): number {
  return REQUEST_TIMEOUT_MS - Number(process.hrtime.bigint() - state.startedAt) / 1e6;
}

/** Whether a handler's parameters include `@Body()` (Nest keys them `<paramtype>:<index>`). */
function readsBody(context: ExecutionContext): boolean {
  const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, context.getClass(), context.getHandler().name) as object | undefined;
  return args !== undefined && Object.keys(args).some((key) => key.split(':')[0] === String(RouteParamtypes.BODY));
}

/**
 * Reads the JSON body of a request, as the global guard after the scope guard: by then the key, the
 * route, its scope and its minimum cost are decided (api-key.middleware.ts, rate-limit.middleware.ts,
 * scope.guard.ts), and Nest's own body parser is off (`bodyParser: false`, create-api-app.ts). The
 * body is read within the route's limits (body-reader.ts), its inflated bytes charged as they
 * arrive, then what it adds to the cost is charged. A body sent to a handler that takes none
 * (no `@Body()`) is read and thrown away without being inflated; one without
 * `Content-Type: application/json` (UTF-8) is refused. A guard rather than an interceptor: it runs
 * before every interceptor (idempotency sees the body), and Nest binds each interceptor of a request
 * to its async context (`AsyncResource.bind`), a cost every GET would pay for nothing.
 */
@Injectable()
export class JsonBodyGuard implements CanActivate {
  /** By handler: whether it takes a body (known from its parameters, read once). */
  private readonly takesBody = new WeakMap<object, boolean>();

  constructor(
    private readonly charges: RequestCharges,
    private readonly metrics: ApiMetrics,
  ) {}

  canActivate(context: ExecutionContext): Promise<boolean> | boolean {
    const req = context.switchToHttp().getRequest<Request>();
    return hasBody(req) ? this.read(context, req).then(() => true) : true;
  }

  private async read(context: ExecutionContext, req: Request): Promise<void> {
    const state = (req as PlatformRequest).platform;
    const timeoutMs = timeLeftMs(state);
    const handler = context.getHandler();
    let takesBody = this.takesBody.get(handler);
    if (takesBody === undefined) this.takesBody.set(handler, (takesBody = readsBody(context)));
    if (!takesBody) {
      await drainRequest(req, timeoutMs);
      state.bodySettled = true;
      return;
    }
    const refusal = this.refusedContentType(req);
    if (refusal) {
      await drainRequest(req, timeoutMs);
      state.bodySettled = true;
      throw refusal;
    }
    const cost = routeCostOf(req.method, req.path);
    const outcome = await readJsonBody(req, {
      maxBytes: maxBodyBytes(cost),
      timeoutMs,
      onBytes: this.metrics.recordBodyBytes,
      charge: this.charges.chargeAsInflated(req),
    });
    state.bodySettled = true;
    if (!outcome.ok) throw outcome.error;
    req.body = outcome.body;
    await this.charges.charge(req, requestCost(cost, outcome.body, outcome.bytes) - state.cost);
  }

  private refusedContentType(req: Request): ApiError | null {
    if (!req.is('application/json')) return new ApiError('invalid_request', 'The request body must be JSON with Content-Type: application/json.');
    const charset = (req.get('content-type') ?? '').match(/charset\s*=\s*"?([^";\s]+)/i)?.[1]?.toLowerCase();
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') return new ApiError('invalid_request', 'The request body must be UTF-8 encoded JSON.');
    return null;
  }
}
