import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import type { Scope } from '@bhis/domain';
import { ApiError } from '@bhis/envelope';
import { PUBLIC_ROUTE, REQUIRED_SCOPE } from './decorators';
import { AuthState, platformState } from './request-context';

/** The refusal of a request without a valid key (401), from the guard or, earlier, from the pipeline. */
export function authError(auth: Exclude<AuthState, { state: 'valid' }>): ApiError {
  if (auth.state === 'none') return new ApiError('missing_api_key', 'An API key is required: send "Authorization: Bearer <API_KEY>" or "X-API-Key".');
  return new ApiError('invalid_api_key', auth.reason);
}

/** Enforces the API key and its scope on every route (global guard). */
@Injectable()
export class ScopeGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;
    const { auth } = platformState(context.switchToHttp().getRequest<Request>());
    if (auth.state !== 'valid') throw authError(auth);
    const scope = this.reflector.getAllAndOverride<Scope | undefined>(REQUIRED_SCOPE, targets);
    if (scope && !auth.key.scopes.includes(scope)) {
      throw new ApiError('insufficient_scope', `This endpoint requires the scope "${scope}"; the key has: ${auth.key.scopes.join(', ') || 'none'}.`);
    }
    return true;
  }
}
