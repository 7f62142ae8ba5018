/** How a client waits out `429 rate_limit_exceeded`. */
export interface RetryOptions {
  /** Attempts after the first (default 3); 0 turns retrying off. */
  maxRetries?: number;
  /** The longest single wait: a longer `Retry-After` is not waited for, the 429 is returned (default 60 s). */
  maxWaitMs?: number;
  /** How to wait (tests pass their own clock). */
  sleep?: (ms: number) => Promise<void>;
}

const DEFAULT_RETRIES = 3;
const DEFAULT_MAX_WAIT_MS = 60_000;
/** The HTTP-date servers send (RFC 9110, 5.6.7): `Sun, 06 Nov 1994 08:49:37 GMT`. */
const IMF_FIXDATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * `Retry-After` in milliseconds: delay-seconds or an HTTP-date (RFC 9110, 10.2.3); null when absent
 * or unreadable.
 */
export function retryAfterMs(value: string | null, now: number = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  if (!IMF_FIXDATE.test(trimmed)) return null;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * A fetch that sends a request again after a 429, waiting as long as the API's `Retry-After` says
 * (the rate-limit window's end), at most `maxRetries` times. Each attempt sends a clone of the
 * original request, so a request with a body can be sent again.
 */
export function retryingFetch(base: typeof fetch, options: RetryOptions = {}): typeof fetch {
  const maxRetries = options.maxRetries ?? DEFAULT_RETRIES;
  const maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  return async (input, init) => {
    const original = new Request(input, init);
    for (let attempt = 0; ; attempt++) {
      const response = await base(original.clone());
      if (response.status !== 429 || attempt >= maxRetries) return response;
      const wait = retryAfterMs(response.headers.get('retry-after'));
      if (wait === null || wait > maxWaitMs) return response;
      await response.body?.cancel();
      await sleep(wait);
    }
  };
}
