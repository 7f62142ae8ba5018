import { retryAfterMs, retryingFetch } from './retry';

const answer = (status: number, headers: Record<string, string> = {}) => new Response(status === 200 ? 'ok' : '{}', { status, headers });

describe('retryAfterMs', () => {
  it('reads delay-seconds and HTTP-dates (RFC 9110, 10.2.3)', () => {
    expect(retryAfterMs('7')).toBe(7000);
    expect(retryAfterMs('Wed, 02 Dec 2026 00:00:30 GMT', Date.parse('2026-12-02T00:00:00Z'))).toBe(30_000);
    expect(retryAfterMs('Wed, 02 Dec 2026 00:00:00 GMT', Date.parse('2026-12-02T00:01:00Z'))).toBe(0);
    expect(retryAfterMs(null)).toBeNull();
    expect(retryAfterMs('soon')).toBeNull();
    expect(retryAfterMs('-3')).toBeNull();
  });
});

describe('retryingFetch', () => {
  it('sends the same request again, body included, after the Retry-After of each 429', async () => {
    const seen: { body: string; auth: string | null }[] = [];
    const answers = [answer(429, { 'retry-after': '2' }), answer(429, { 'retry-after': '1' }), answer(200)];
    const waits: number[] = [];
    const fetcher = retryingFetch(
      async (input) => {
        const request = input as Request;
        seen.push({ body: await request.text(), auth: request.headers.get('authorization') });
        return answers.shift()!;
      },
      { sleep: async (ms) => void waits.push(ms) },
    );
    const response = await fetcher(new Request('http://api.test/api/v1/buildings/batch', { method: 'POST', body: '{"bbls":["1000010001"]}', headers: { authorization: 'Bearer k' } }));
    expect(response.status).toBe(200);
    expect(waits).toEqual([2000, 1000]);
    expect(seen).toEqual(Array.from({ length: 3 }, () => ({ body: '{"bbls":["1000010001"]}', auth: 'Bearer k' })));
  });

  it('returns the 429 after maxRetries, when Retry-After is missing, or when it asks for longer than maxWaitMs', async () => {
    const always = (headers: Record<string, string>) => {
      let calls = 0;
      const fetcher = retryingFetch(async () => (calls++, answer(429, headers)), { maxRetries: 2, maxWaitMs: 5000, sleep: async () => undefined });
      return { fetcher, calls: () => calls };
    };
    const capped = always({ 'retry-after': '1' });
    expect((await capped.fetcher('http://api.test/x')).status).toBe(429);
    expect(capped.calls()).toBe(3);
    const missing = always({});
    expect((await missing.fetcher('http://api.test/x')).status).toBe(429);
    expect(missing.calls()).toBe(1);
    const tooLong = always({ 'retry-after': '60' });
    expect((await tooLong.fetcher('http://api.test/x')).status).toBe(429);
    expect(tooLong.calls()).toBe(1);
  });

  it('does not retry other statuses', async () => {
    let calls = 0;
    const fetcher = retryingFetch(async () => (calls++, answer(503, { 'retry-after': '1' })), { sleep: async () => undefined });
    expect((await fetcher('http://api.test/x')).status).toBe(503);
    expect(calls).toBe(1);
  });
});
