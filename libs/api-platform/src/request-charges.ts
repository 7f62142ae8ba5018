import type { Request, Response } from 'express';
import { ApiError } from '@bhis/envelope';
import type { RateLimitDecision, RateLimiter } from './rate-limiter';
import { writeRateLimitHeaders } from './response-head';
import { platformState } from './request-context';

export interface RateLimits {
  live: number;
  demo: number;
  anonymous: number;
  /** Requests with an invalid key per client address and minute, before further ones are refused unchecked. */
  authFailures: number;
}

/**
 * Charges rate-limit units to the key of a request (or, without a valid key, to the client address).
 * A request is charged in steps: its route's minimum before the body is read, the rest once the body
 * (or, for a filtered export, the row count) is known. A refused step answers 429.
 */
export class RequestCharges {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly limits: RateLimits,
  ) {}

  private target(req: Request): { identity: string; limit: number } {
    const { auth } = platformState(req);
    return auth.state === 'valid'
      ? { identity: `key:${auth.key.id}`, limit: auth.key.rateLimitPerMin ?? this.limits[auth.key.kind] }
      : { identity: `ip:${req.ip ?? 'unknown'}`, limit: this.limits.anonymous };
  }

  /** Adds `units` to the request's cost; throws rate_limit_exceeded when they are not available. */
  async charge(req: Request, res: Response, units: number): Promise<void> {
    if (units <= 0) return;
    const { identity, limit } = this.target(req);
    this.settle(req, res, units, limit, await this.limiter.consume(identity, limit, units));
  }

  /**
   * `charge` when the rate limiter can decide from memory (the key's lease): true once charged (or
   * throws the refusal); false when it needs the asynchronous `charge`.
   */
  chargeFromMemory(req: Request, res: Response, units: number): boolean {
    if (units <= 0) return true;
    const { identity, limit } = this.target(req);
    const decision = this.limiter.consumeFromMemory(identity, limit, units);
    if (!decision) return false;
    this.settle(req, res, units, limit, decision);
    return true;
  }

  private settle(req: Request, res: Response, units: number, limit: number, decision: RateLimitDecision): void {
    const state = platformState(req);
    state.rateLimit = decision.status;
    state.cost += units;
    // before the router the headers are written with the answer (response-head.ts)
    if (state.handedOn && !res.headersSent) {
      res.setHeader('X-RateLimit-Cost', String(state.cost));
      writeRateLimitHeaders(res, decision.status);
    }
    if (!decision.allowed) {
      state.cost -= units;
      throw new ApiError(
        'rate_limit_exceeded',
        `Rate limit of ${limit} units per minute exceeded (this request costs ${state.cost + units}). Retry in ${decision.retryAfterSeconds} s.`,
        { headers: { 'Retry-After': String(decision.retryAfterSeconds), 'X-RateLimit-Cost': String(state.cost + units) } },
      );
    }
  }

  /** Whether the client address has used up its invalid-key attempts (checked before any key lookup). */
  async authFailuresExhausted(req: Request): Promise<{ retryAfterSeconds: number } | null> {
    // when Redis is unreachable the check is skipped rather than refusing every key
    const left = await this.limiter.remaining(`authfail:${req.ip ?? 'unknown'}`, this.limits.authFailures).catch(() => null);
    return !left || left.remaining > 0 ? null : { retryAfterSeconds: left.retryAfterSeconds };
  }

  async recordAuthFailure(req: Request): Promise<void> {
    await this.limiter.consume(`authfail:${req.ip ?? 'unknown'}`, this.limits.authFailures, 1);
  }
}
