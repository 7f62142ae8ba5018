import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { AppConfig } from '@bhis/config';
import { CONFIG, RateLimiter, REDIS } from '@bhis/api-platform';
import { ApiError } from '@bhis/envelope';
import { MONITORS_PER_KEY } from '@bhis/webhooks';

/**
 * Monitor creations per key and hour: twice the monitors a key may hold, so a key can fill its places
 * and replace every one of them within the hour, and no more (each creation writes up to 10,000 rows).
 */
export const MONITOR_CREATIONS_PER_HOUR = 2 * MONITORS_PER_KEY;
const HOUR_SECONDS = 3600;

/** Test deliveries per monitor and minute: enough to check an endpoint by hand, not a stream of signed requests. */
export const TEST_DELIVERIES_PER_MINUTE = 5;

function tooMany(message: string, retryAfterSeconds: number): ApiError {
  const wait = Math.max(1, Math.ceil(retryAfterSeconds));
  return new ApiError('rate_limit_exceeded', `${message} Retry in ${wait} s.`, { headers: { 'Retry-After': String(wait) } });
}

/**
 * The limits on monitor writes besides the key's units per minute, shared by every API instance through
 * Redis: creations per key and hour (an hourly window, which the per-minute limiter does not have:
 * rate-limiter-flexible's Redis limiter, with a memory limiter while Redis is unreachable, as
 * docs/adr/0002-rate-limiting.md does for units) and test deliveries per monitor and minute (the
 * API's own limiter). Past either: 429 `rate_limit_exceeded` with `Retry-After`.
 */
@Injectable()
export class MonitorWriteLimits {
  private readonly creations: RateLimiterRedis;

  constructor(
    @Inject(REDIS) redis: Redis,
    @Inject(CONFIG) config: AppConfig,
    private readonly limiter: RateLimiter,
  ) {
    this.creations = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${config.REDIS_PREFIX}:monitor-creations`,
      points: MONITOR_CREATIONS_PER_HOUR,
      duration: HOUR_SECONDS,
      insuranceLimiter: new RateLimiterMemory({ points: MONITOR_CREATIONS_PER_HOUR, duration: HOUR_SECONDS }),
    });
  }

  /** Counts a creation for the key; throws 429 past MONITOR_CREATIONS_PER_HOUR. */
  async countCreation(apiKeyId: string): Promise<void> {
    try {
      await this.creations.consume(apiKeyId, 1);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      throw tooMany(`At most ${MONITOR_CREATIONS_PER_HOUR} monitors can be created per key and hour.`, error.msBeforeNext / 1000);
    }
  }

  /** Counts a test delivery of the monitor; throws 429 past TEST_DELIVERIES_PER_MINUTE. */
  async countTestDelivery(monitorId: string): Promise<void> {
    const decision = await this.limiter.consume(`monitor-test:${monitorId}`, TEST_DELIVERIES_PER_MINUTE, 1);
    if (!decision.allowed) throw tooMany(`At most ${TEST_DELIVERIES_PER_MINUTE} test deliveries per monitor and minute.`, decision.retryAfterSeconds);
  }
}
