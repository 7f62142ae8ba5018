import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ApiError } from '@bhis/envelope';
import { ApiKeyStore, KeyCheck } from './api-key-store';
import { AuthState, PlatformRequest } from './request-context';
import { RequestCharges } from './request-charges';

type PresentedKey = string | null | { malformed: string };

/** The key of a request: a Bearer token, X-API-Key, or the password of HTTP Basic auth (what a browser can send). */
function presentedKey(req: Request): PresentedKey {
  const authorization = req.headers.authorization;
  if (authorization !== undefined) {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (bearer) return bearer[1] as string;
    const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
    if (basic) {
      const decoded = Buffer.from(basic[1] as string, 'base64').toString('utf8');
      return decoded.slice(decoded.indexOf(':') + 1) || null;
    }
    return { malformed: 'The Authorization header must have the form "Bearer <API_KEY>".' };
  }
  const header = req.headers['x-api-key'];
  if (typeof header === 'string') return header.trim() === '' ? null : header.trim();
  return null;
}

const REASONS: Record<string, string> = {
  malformed: 'The API key is not a valid key.',
  unknown: 'The API key is not valid.',
  expired: 'The API key has expired.',
  revoked: 'The API key has been revoked.',
};

function authState(check: KeyCheck): AuthState {
  return check.ok ? { state: 'valid', key: check.key } : { state: 'invalid', reason: REASONS[check.reason] as string };
}

/**
 * Checks the API key of every request (any path, before the router), before a byte of the body is
 * read: the request's `auth` becomes valid, invalid (with the reason) or none. It refuses nothing
 * itself: whether the route needs a key is the scope guard's to say (scope.guard.ts). A client
 * address past its allowance of invalid keys gets 429 instead of a key lookup, unless the key's lookup
 * prefix is one of a stored key (a valid key is always looked up and passes). Keys known from memory
 * (valid or unknown) and malformed ones cost no lookup, and are decided without waiting.
 */
@Injectable()
export class ApiKeyStep {
  constructor(
    private readonly keys: ApiKeyStore,
    private readonly charges: RequestCharges,
  ) {}

  /** Undefined when decided at once; else the promise of the decision. */
  run(req: Request): Promise<void> | undefined {
    const state = (req as PlatformRequest).platform;
    const presented = presentedKey(req);
    if (presented === null) return undefined;
    if (typeof presented === 'object') {
      state.auth = { state: 'invalid', reason: presented.malformed };
      return this.afterFailure(req);
    }
    const known = this.keys.checkFromMemory(presented);
    if (known) {
      state.auth = authState(known);
      return known.ok ? undefined : this.afterFailure(req);
    }
    return this.lookUp(req, presented);
  }

  private async lookUp(req: Request, presented: string): Promise<void> {
    const state = (req as PlatformRequest).platform;
    state.auth = authState(await this.keys.check(presented, (sharesStoredPrefix) => this.refuseAfterAuthFailures(req, sharesStoredPrefix)));
    if (state.auth.state === 'invalid') await this.afterFailure(req);
  }

  /** An invalid key counts against its client address's allowance (a Redis failure does not stop the request). */
  private async afterFailure(req: Request): Promise<void> {
    await this.charges.recordAuthFailure(req).catch(() => undefined);
  }

  private async refuseAfterAuthFailures(req: Request, sharesStoredPrefix: () => Promise<boolean>): Promise<void> {
    const blocked = await this.charges.authFailuresExhausted(req);
    if (blocked && !(await sharesStoredPrefix())) {
      throw new ApiError('rate_limit_exceeded', `Too many requests with an invalid API key from this address. Retry in ${blocked.retryAfterSeconds} s.`, {
        headers: { 'Retry-After': String(blocked.retryAfterSeconds) },
      });
    }
  }
}
