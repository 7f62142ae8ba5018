import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Request } from 'express';
import type { Scope } from '@bhis/domain';
import { platformState } from './request-context';
import type { PlatformRequestState } from './request-context';

export const PUBLIC_ROUTE = 'bhis:public';
export const REQUIRED_SCOPE = 'bhis:scope';

/** The route needs no API key (health, reference files). */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);

/** The route needs a key holding this scope. Routes with neither decorator need any valid key. */
export const RequireScope = (scope: Scope) => SetMetadata(REQUIRED_SCOPE, scope);

/** Injects the request's platform state (request id, rate limit, key). */
export const Platform = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): PlatformRequestState => platformState(ctx.switchToHttp().getRequest<Request>()),
);
