import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitStatus } from '@bhis/envelope';

export const RATE_LIMIT_WINDOW_SECONDS = 60;

export interface RateLimitDecision {
  allowed: boolean;
  status: RateLimitStatus;
  /** Whole seconds until enough units are free again (only when refused). */
  retryAfterSeconds: number;
}

/**
 * Per-key fixed windows of 60 s in Redis, shared by every API instance.
 *
 * When Redis is unreachable each instance falls back to the same limits kept in its own memory
 * (rate-limiter-flexible's insurance limiter): requests keep flowing and are still limited, per
 * instance, until Redis is back. See docs/adr/0002-rate-limiting.md.
 */
export class RateLimiter {
  private readonly limiters = new Map<number, RateLimiterRedis>();

  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
  ) {}

  private limiterFor(limit: number): RateLimiterRedis {
    let limiter = this.limiters.get(limit);
    if (!limiter) {
      limiter = new RateLimiterRedis({
        storeClient: this.redis,
        keyPrefix: `${this.keyPrefix}:rl:${limit}`,
        points: limit,
        duration: RATE_LIMIT_WINDOW_SECONDS,
        insuranceLimiter: new RateLimiterMemory({ points: limit, duration: RATE_LIMIT_WINDOW_SECONDS }),
      });
      this.limiters.set(limit, limiter);
    }
    return limiter;
  }

  async consume(identity: string, limit: number, cost: number): Promise<RateLimitDecision> {
    const limiter = this.limiterFor(limit);
    try {
      const res = await limiter.consume(identity, cost);
      return { allowed: true, status: status(limit, res), retryAfterSeconds: 0 };
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      // refused: give the points back so a rejected request costs nothing
      await limiter.reward(identity, cost).catch(() => undefined);
      const after = await limiter.get(identity).catch(() => null);
      const current = after ?? rejection;
      return {
        allowed: false,
        status: status(limit, current),
        retryAfterSeconds: Math.max(1, Math.ceil(current.msBeforeNext / 1000)),
      };
    }
  }

  /** Units left in the current window, without charging any. */
  async remaining(identity: string, limit: number): Promise<{ remaining: number; retryAfterSeconds: number }> {
    const res = await this.limiterFor(limit).get(identity);
    if (!res) return { remaining: limit, retryAfterSeconds: 0 };
    return { remaining: Math.max(0, limit - res.consumedPoints), retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
  }
}

function status(limit: number, res: RateLimiterRes): RateLimitStatus {
  return {
    limit,
    remaining: Math.max(0, limit - res.consumedPoints),
    reset_at: new Date(Date.now() + res.msBeforeNext).toISOString(),
  };
}
