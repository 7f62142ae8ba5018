/**
 * When a failed delivery is tried again: delays after the 1st, 2nd, ... failed attempt. Twelve attempts
 * over about 31.7 hours (at least 25.3 hours with the largest negative jitter), so a receiver that is
 * down for a whole day still gets every event.
 */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [
  5_000, // 5 s
  30_000, // 30 s
  2 * 60_000, // 2 min
  10 * 60_000, // 10 min
  30 * 60_000, // 30 min
  3_600_000, // 1 h
  2 * 3_600_000, // 2 h
  4 * 3_600_000, // 4 h
  8 * 3_600_000, // 8 h
  8 * 3_600_000, // 8 h
  8 * 3_600_000, // 8 h
];

/** Each delay is moved by up to this fraction either way, so retries of many deliveries spread out. */
export const DEFAULT_RETRY_JITTER = 0.2;

/** A receiver's Retry-After is honoured up to this long. */
export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

export interface RetryPolicy {
  delaysMs: readonly number[];
  jitter: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { delaysMs: DEFAULT_RETRY_DELAYS_MS, jitter: DEFAULT_RETRY_JITTER };

/** Attempts a delivery gets in all: the first plus one per delay. */
export function maxAttempts(policy: RetryPolicy): number {
  return policy.delaysMs.length + 1;
}

/**
 * The wait before the next attempt after `attemptsMade` failed attempts, or null when none are left.
 * A Retry-After from the receiver is a lower bound.
 */
export function nextRetryDelayMs(policy: RetryPolicy, attemptsMade: number, retryAfterMs: number | null, random: () => number = Math.random): number | null {
  if (attemptsMade >= maxAttempts(policy)) return null;
  const base = policy.delaysMs[Math.max(0, attemptsMade - 1)];
  const jittered = Math.round(base * (1 + policy.jitter * (2 * random() - 1)));
  return Math.max(jittered, Math.min(retryAfterMs ?? 0, MAX_RETRY_AFTER_MS));
}

/** Parses a Retry-After header (seconds or an HTTP date) into milliseconds from `now`. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
