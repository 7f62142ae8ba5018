import { DEFAULT_RETRY_POLICY, maxAttempts, MAX_RETRY_AFTER_MS, nextRetryDelayMs, parseRetryAfter } from './retry-schedule';

describe('retry schedule', () => {
  it('keeps retrying for at least 24 hours even with the largest negative jitter', () => {
    let total = 0;
    for (let made = 1; ; made++) {
      const delay = nextRetryDelayMs(DEFAULT_RETRY_POLICY, made, null, () => 0);
      if (delay === null) break;
      total += delay;
    }
    expect(total).toBeGreaterThanOrEqual(24 * 3_600_000);
    expect(maxAttempts(DEFAULT_RETRY_POLICY)).toBe(12);
  });

  it('starts at about 5 seconds and jitters within 20%', () => {
    for (const r of [0, 0.5, 0.999]) {
      const delay = nextRetryDelayMs(DEFAULT_RETRY_POLICY, 1, null, () => r)!;
      expect(delay).toBeGreaterThanOrEqual(4_000);
      expect(delay).toBeLessThanOrEqual(6_000);
    }
  });

  it('gives up after the last attempt', () => {
    expect(nextRetryDelayMs(DEFAULT_RETRY_POLICY, maxAttempts(DEFAULT_RETRY_POLICY), null)).toBeNull();
  });

  it('waits at least as long as Retry-After asks, up to a day', () => {
    expect(nextRetryDelayMs({ delaysMs: [100], jitter: 0 }, 1, 7_000)).toBe(7_000);
    expect(nextRetryDelayMs({ delaysMs: [100], jitter: 0 }, 1, 10 * MAX_RETRY_AFTER_MS)).toBe(MAX_RETRY_AFTER_MS);
  });

  it('parses Retry-After in seconds and as an HTTP date', () => {
    expect(parseRetryAfter('120')).toBe(120_000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('soon')).toBeNull();
    expect(parseRetryAfter(undefined)).toBeNull();
  });
});
