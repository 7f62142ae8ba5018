import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import type { Scope } from '@bhis/domain';
import { ApiError } from '@bhis/envelope';
import { PUBLIC_ROUTE, REQUIRED_SCOPE } from './decorators';
import type { AuthenticatedKey } from './api-key-store';
import { AuthState, platformState } from './request-context';

const MISSING_KEY = new ApiError('missing_api_key', 'An API key is required: send "Authorization: Bearer <API_KEY>" or "X-API-Key".');
/** By reason: the reasons are the key check's fixed texts (api-key.middleware.ts), so this holds a handful of errors. */
const INVALID_KEY = new Map<string, ApiError>();

/**
 * The refusal of a request without a valid key (401). The errors carry nothing of the request, so one
 * of each is made and thrown again (a 401 costs no error construction).
 */
export function authError(auth: Exclude<AuthState, { state: 'valid' }>): ApiError {
  if (auth.state === 'none') return MISSING_KEY;
  let error = INVALID_KEY.get(auth.reason);
  if (!error) INVALID_KEY.set(auth.reason, (error = new ApiError('invalid_api_key', auth.reason)));
  return error;
}

/** The refusal of a valid key that lacks the route's scope (403), before the body is read. */
export function scopeError(scope: Scope, key: AuthenticatedKey): ApiError {
  return new ApiError('insufficient_scope', `This endpoint requires the scope "${scope}"; the key has: ${key.scopes.join(', ') || 'none'}.`);
}

/** What a route asks of a request's key: none (`@Public`), any valid key (null), or a scope. */
type RouteAccess = 'public' | Scope | null;

/**
 * Enforces the API key and its scope on every route (global guard), from the route's `@Public` and
 * `@RequireScope`: it runs before every interceptor, so before the body is read (json-body.guard.ts).
 * The metadata of a handler is read once, on its first request.
 */
@Injectable()
export class ScopeGuard implements CanActivate {
  private readonly access = new Map<object, RouteAccess>();

  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    let access = this.access.get(handler);
    if (access === undefined) this.access.set(handler, (access = this.accessOf(handler, context.getClass())));
    if (access === 'public') return true;
    const { auth } = platformState(context.switchToHttp().getRequest<Request>());
    if (auth.state !== 'valid') throw authError(auth);
    if (access !== null && !auth.key.scopes.includes(access)) throw scopeError(access, auth.key);
    return true;
  }

  private accessOf(handler: object, controller: object): RouteAccess {
    const targets = [handler as () => unknown, controller as new () => unknown];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return 'public';
    return this.reflector.getAllAndOverride<Scope | undefined>(REQUIRED_SCOPE, targets) ?? null;
  }
}
