import Redis from 'ioredis';
import { testRedisPrefix } from '@bhis/testing';
import { RateLimiter } from './rate-limiter';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const LEASES = { share: 0.01, maxUnits: 1000, idleMs: 100 };

describe('RateLimiter (leases from Redis)', () => {
  let redis: Redis;
  let prefix: string;
  const limiters: RateLimiter[] = [];

  const limiter = (leases = LEASES): RateLimiter => {
    const made = new RateLimiter(redis, prefix, leases);
    limiters.push(made);
    return made;
  };
  const redisCount = async (identity: string, limit: number): Promise<number> => Number((await redis.get(`${prefix}:rl:${limit}:${identity}`)) ?? 0);

  beforeAll(async () => {
    redis = new Redis(REDIS_URL);
    await redis.ping();
  });
  beforeEach(() => {
    prefix = testRedisPrefix();
  });
  afterEach(async () => {
    for (const l of limiters.splice(0)) await l.stop();
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
  });
  afterAll(() => redis.disconnect());

  it('asks Redis once per lease, not once per request', async () => {
    const one = limiter();
    const calls: string[] = [];
    const monitor = await redis.monitor();
    monitor.on('monitor', (_time: string, args: string[]) => {
      if (args.some((a) => a.includes(prefix))) calls.push(args[0] ?? '');
    });
    try {
      for (let n = 0; n < 300; n++) expect((await one.consume('key:a', 10_000, 1)).allowed).toBe(true);
    } finally {
      await new Promise((resolve) => setTimeout(resolve, 50));
      monitor.disconnect();
    }
    // 300 units in leases of 100 (1 % of 10,000), the first one plus the unit that asked for it
    const scripts = calls.filter((c) => c.toLowerCase() === 'evalsha' || c.toLowerCase() === 'eval');
    expect(scripts.length).toBeGreaterThanOrEqual(3);
    expect(scripts.length).toBeLessThanOrEqual(4);
    // what Redis counts covers every unit spent, never less
    expect(await redisCount('key:a', 10_000)).toBeGreaterThanOrEqual(300);
  });

  it('reports remaining units exactly on one instance', async () => {
    const one = limiter();
    const first = await one.consume('key:b', 1000, 1);
    const second = await one.consume('key:b', 1000, 3);
    expect(first.status.remaining).toBe(999);
    expect(second.status.remaining).toBe(996);
    expect(first.status.reset_at).toBe(second.status.reset_at);
  });

  it('two instances together never admit more than the limit, and refuse at most the units leased and unspent', async () => {
    const limit = 5000; // leases of 50
    const [a, b] = [limiter(), limiter()];
    let admitted = 0;
    let refusedEarly = 0;
    for (let n = 0; n < limit + 400; n++) {
      const decisions = await Promise.all([a.consume('key:c', limit, 1), b.consume('key:c', limit, 1)]);
      for (const d of decisions) {
        if (d.allowed) admitted += 1;
        else if (admitted < limit) refusedEarly += 1;
      }
    }
    expect(admitted).toBeLessThanOrEqual(limit);
    // the other instance's lease (50) is the most that can be held unspent while one refuses
    expect(admitted).toBeGreaterThanOrEqual(limit - 50);
    expect(refusedEarly).toBeLessThanOrEqual(2 * 50);
    expect(await redisCount('key:c', limit)).toBeLessThanOrEqual(limit);
  });

  it('gives an idle lease back, so another instance can spend it', async () => {
    const limit = 1000; // leases of 10
    const [a, b] = [limiter(), limiter()];
    expect((await a.consume('key:d', limit, 1)).allowed).toBe(true);
    expect(await redisCount('key:d', limit)).toBe(11);
    // b spends all the rest
    for (let n = 0; n < limit - 11; n++) expect((await b.consume('key:d', limit, 1)).allowed).toBe(true);
    expect((await b.consume('key:d', limit, 1)).allowed).toBe(false);
    a.start();
    // a's ten unspent units go back within a few sweeps, and b sees them once its refusal is no longer remembered
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await redisCount('key:d', limit)).toBe(limit - 10);
    let more = 0;
    for (let n = 0; n < 20; n++) if ((await b.consume('key:d', limit, 1)).allowed) more += 1;
    expect(more).toBe(10);
  });

  it('answers a refusal from memory for the idle time, then asks Redis again', async () => {
    const one = limiter();
    expect((await one.consume('key:e', 1, 1)).allowed).toBe(true);
    const refused = await one.consume('key:e', 1, 1);
    expect(refused.allowed).toBe(false);
    expect(refused.status.remaining).toBe(0);
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(59);
    // another instance frees the unit in Redis: the remembered refusal still holds for up to 100 ms
    await redis.set(`${prefix}:rl:1:key:e`, 0, 'KEEPTTL');
    expect((await one.consume('key:e', 1, 1)).allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect((await one.consume('key:e', 1, 1)).allowed).toBe(true);
  });

  it('does not charge a refused request', async () => {
    const one = limiter();
    expect((await one.consume('key:f', 10, 8)).allowed).toBe(true);
    expect((await one.consume('key:f', 10, 5)).allowed).toBe(false);
    expect(await redisCount('key:f', 10)).toBe(8);
  });

  it('stop gives every unspent lease back', async () => {
    const one = limiter();
    await one.consume('key:g', 100_000, 1);
    expect(await redisCount('key:g', 100_000)).toBe(1001);
    await one.stop();
    expect(await redisCount('key:g', 100_000)).toBe(1);
  });
});
