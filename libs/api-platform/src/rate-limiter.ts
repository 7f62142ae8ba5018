import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitStatus } from '@bhis/envelope';

export const RATE_LIMIT_WINDOW_SECONDS = 60;
const WINDOW_MS = RATE_LIMIT_WINDOW_SECONDS * 1000;

export interface RateLimitDecision {
  allowed: boolean;
  status: RateLimitStatus;
  /** Whole seconds until enough units are free again (only when refused). */
  retryAfterSeconds: number;
}

export interface LeaseOptions {
  /** Share of a key's limit leased at once (a lease below one unit means every request asks Redis). */
  share: number;
  /** The most units leased at once, whatever the limit. */
  maxUnits: number;
  /** A lease unused for this long is given back; a refusal is answered from memory this long. */
  idleMs: number;
}

export const DEFAULT_LEASES: LeaseOptions = { share: 0.01, maxUnits: 1000, idleMs: 100 };

/** What one instance knows of one key's current window. */
interface Bucket {
  /** Local time the Redis window ends. */
  resetAt: number;
  /** Units Redis granted this instance and it has not spent yet. */
  leased: number;
  /** The window's count in Redis at this instance's last exchange (its own lease included). */
  counted: number;
  /** Refusals are answered from memory until then. */
  refusedUntil: number;
  lastUsed: number;
  exchange: Promise<void> | null;
  /** `resetAt` as the ISO text the responses carry, made once per window. */
  resetText: { at: number; text: string } | null;
}

/**
 * Grants `need` units (and up to `extra` more as a lease) from a fixed window of `limit` units, or none
 * when `need` does not fit. Returns the window's count after the grant, its time left, and the grant.
 */
const GRANT = `
local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
local ttl = redis.call('PTTL', KEYS[1])
local need, extra, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
if cur + need > limit then return {cur, ttl, 0} end
local grant = math.min(need + extra, limit - cur)
local n = redis.call('INCRBY', KEYS[1], grant)
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[4]); ttl = tonumber(ARGV[4]) end
return {n, ttl, grant}`;

/** Gives back unspent units, only to the window they were granted from (its end within 1 s of the one expected). */
const GIVE_BACK = `
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 and math.abs(ttl - tonumber(ARGV[2])) < 1000 then
  local n = redis.call('DECRBY', KEYS[1], ARGV[1])
  if n < 0 then redis.call('SET', KEYS[1], 0, 'KEEPTTL') end
end
return 0`;

type RedisWithScripts = Redis & {
  bhisGrant(key: string, need: number, extra: number, limit: number, windowMs: number): Promise<[number, number, number]>;
  bhisGiveBack(key: string, units: number, ttlMs: number): Promise<number>;
};

/**
 * Per-key fixed windows of 60 s counted in Redis and shared by every API instance, spent locally.
 *
 * Redis is the only one that grants units, and never more than the limit in a window: an instance
 * leases a small share of the limit at a time (1 %, at most 1,000 units) and spends it from memory,
 * so a busy key costs one Redis call per lease instead of one per request. Refusals are answered
 * from memory for 100 ms, and a lease unused for 100 ms is given back. See
 * docs/adr/0012-leased-rate-limits.md for the bounds this keeps.
 *
 * When Redis is unreachable each instance falls back to the same limits kept in its own memory:
 * requests keep flowing and are still limited, per instance, until Redis is back (ADR 0002).
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly insurance = new Map<number, RateLimiterMemory>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    private readonly leases: LeaseOptions = DEFAULT_LEASES,
  ) {
    const scripts = redis as RedisWithScripts;
    if (typeof scripts.bhisGrant !== 'function') {
      redis.defineCommand('bhisGrant', { numberOfKeys: 1, lua: GRANT });
      redis.defineCommand('bhisGiveBack', { numberOfKeys: 1, lua: GIVE_BACK });
    }
  }

  private get scripts(): RedisWithScripts {
    return this.redis as RedisWithScripts;
  }

  /** Starts giving back idle leases and forgetting ended windows. */
  start(): void {
    this.timer ??= setInterval(() => void this.sweep(Date.now()).catch(() => undefined), this.leases.idleMs);
    this.timer.unref();
  }

  /** Gives back every unspent lease. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.sweep(Number.POSITIVE_INFINITY).catch(() => undefined);
  }

  private redisKey(identity: string, limit: number): string {
    return `${this.keyPrefix}:rl:${limit}:${identity}`;
  }

  private leaseFor(limit: number): number {
    return Math.min(this.leases.maxUnits, Math.floor(limit * this.leases.share));
  }

  /** The decision when the lease in memory settles it (units left, or a refusal still fresh); undefined: ask `consume`. */
  consumeFromMemory(identity: string, limit: number, cost: number): RateLimitDecision | undefined {
    const bucket = this.buckets.get(this.redisKey(identity, limit));
    return bucket && this.spendFromBucket(bucket, limit, cost, Date.now());
  }

  private spendFromBucket(bucket: Bucket, limit: number, cost: number, now: number): RateLimitDecision | undefined {
    if (bucket.resetAt <= now) return undefined;
    bucket.lastUsed = now;
    if (bucket.leased >= cost) {
      bucket.leased -= cost;
      return { allowed: true, status: bucketStatus(limit, bucket), retryAfterSeconds: 0 };
    }
    return bucket.refusedUntil > now ? refusal(limit, bucket, now) : undefined;
  }

  async consume(identity: string, limit: number, cost: number): Promise<RateLimitDecision> {
    const key = this.redisKey(identity, limit);
    for (;;) {
      const now = Date.now();
      let bucket = this.buckets.get(key);
      if (bucket && bucket.resetAt <= now && !bucket.exchange) {
        this.buckets.delete(key);
        bucket = undefined;
      }
      const spent = bucket && this.spendFromBucket(bucket, limit, cost, now);
      if (spent) return spent;
      if (bucket?.exchange) {
        await bucket.exchange;
        continue;
      }
      if (this.redis.status !== 'ready') return this.consumeInMemory(identity, limit, cost);
      bucket ??= { resetAt: 0, leased: 0, counted: 0, refusedUntil: 0, lastUsed: now, exchange: null, resetText: null };
      this.buckets.set(key, bucket);
      const exchange = this.exchange(key, bucket, limit, cost);
      bucket.exchange = exchange.then(
        () => undefined,
        () => undefined,
      );
      try {
        const decision = await exchange;
        if (decision) return decision;
      } catch {
        this.buckets.delete(key);
        return this.consumeInMemory(identity, limit, cost);
      } finally {
        bucket.exchange = null;
      }
    }
  }

  /** Asks Redis for `cost` units (less what the lease still holds) plus a new lease; null: spend from the bucket. */
  private async exchange(key: string, bucket: Bucket, limit: number, cost: number): Promise<RateLimitDecision | null> {
    const now = Date.now();
    const held = bucket.resetAt > now ? bucket.leased : 0;
    const need = cost - held;
    const [count, ttl, granted] = await this.scripts.bhisGrant(key, need, this.leaseFor(limit), limit, WINDOW_MS);
    const at = Date.now();
    bucket.resetAt = at + Math.max(0, ttl);
    bucket.counted = count;
    bucket.leased = held + granted;
    if (granted === 0) {
      bucket.refusedUntil = at + this.leases.idleMs;
      return refusal(limit, bucket, at);
    }
    bucket.refusedUntil = 0;
    return null;
  }

  private async consumeInMemory(identity: string, limit: number, cost: number): Promise<RateLimitDecision> {
    let limiter = this.insurance.get(limit);
    if (!limiter) {
      limiter = new RateLimiterMemory({ points: limit, duration: RATE_LIMIT_WINDOW_SECONDS });
      this.insurance.set(limit, limiter);
    }
    try {
      const res = await limiter.consume(identity, cost);
      return { allowed: true, status: resStatus(limit, res), retryAfterSeconds: 0 };
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      // refused: give the points back so a rejected request costs nothing
      await limiter.reward(identity, cost);
      const current = (await limiter.get(identity)) ?? rejection;
      return { allowed: false, status: resStatus(limit, current), retryAfterSeconds: Math.max(1, Math.ceil(current.msBeforeNext / 1000)) };
    }
  }

  /** Units left in the current window, without charging any. */
  async remaining(identity: string, limit: number): Promise<{ remaining: number; retryAfterSeconds: number }> {
    const key = this.redisKey(identity, limit);
    const now = Date.now();
    const bucket = this.buckets.get(key);
    if (bucket && bucket.refusedUntil > now) {
      return { remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil((bucket.resetAt - now) / 1000)) };
    }
    if (this.redis.status !== 'ready') throw new Error('Redis is not connected');
    const [[, count], [, ttl]] = ((await this.redis.multi().get(key).pttl(key).exec()) ?? []) as [[unknown, string | null], [unknown, number]];
    if (count === null || ttl < 0) return { remaining: limit, retryAfterSeconds: 0 };
    const unspent = bucket && bucket.resetAt > now ? bucket.leased : 0;
    return { remaining: Math.max(0, limit - Number(count) + unspent), retryAfterSeconds: Math.max(1, Math.ceil(ttl / 1000)) };
  }

  /** Gives back leases unused since `before - idleMs` and forgets windows that have ended. */
  private async sweep(before: number): Promise<void> {
    const now = Date.now();
    const giveBacks: Promise<unknown>[] = [];
    for (const [key, bucket] of this.buckets) {
      if (bucket.exchange) continue;
      if (bucket.resetAt <= now) {
        this.buckets.delete(key);
      } else if (bucket.leased > 0 && bucket.lastUsed <= before - this.leases.idleMs && this.redis.status === 'ready') {
        const units = bucket.leased;
        bucket.leased = 0;
        bucket.counted -= units;
        giveBacks.push(this.scripts.bhisGiveBack(key, units, bucket.resetAt - now).catch(() => undefined));
      }
    }
    await Promise.all(giveBacks);
  }
}

function bucketStatus(limit: number, bucket: Bucket): RateLimitStatus {
  return {
    limit,
    remaining: Math.max(0, Math.min(limit, limit - bucket.counted + bucket.leased)),
    reset_at: resetTextOf(bucket),
  };
}

function resetTextOf(bucket: Bucket): string {
  if (bucket.resetText?.at !== bucket.resetAt) bucket.resetText = { at: bucket.resetAt, text: new Date(bucket.resetAt).toISOString() };
  return bucket.resetText.text;
}

function refusal(limit: number, bucket: Bucket, now: number): RateLimitDecision {
  return { allowed: false, status: bucketStatus(limit, bucket), retryAfterSeconds: Math.max(1, Math.ceil((bucket.resetAt - now) / 1000)) };
}

function resStatus(limit: number, res: RateLimiterRes): RateLimitStatus {
  return {
    limit,
    remaining: Math.max(0, limit - res.consumedPoints),
    reset_at: new Date(Date.now() + res.msBeforeNext).toISOString(),
  };
}
