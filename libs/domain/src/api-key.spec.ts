import { generateApiKey, hashApiKey, hashesEqual, parsePresentedKey } from './api-key';

describe('API keys', () => {
  it('generates sk_live_ and sk_demo_ keys with 32 random bytes, a lookup prefix and a SHA-256 hash', () => {
    const live = generateApiKey('live');
    expect(live.key).toMatch(/^sk_live_[A-Za-z0-9_-]{43}$/);
    expect(live.prefix).toBe(live.key.slice(0, 16));
    expect(live.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(live.hash).toBe(hashApiKey(live.key));
    const demo = generateApiKey('demo');
    expect(demo.key).toMatch(/^sk_demo_/);
    expect(generateApiKey('live').key).not.toBe(live.key);
  });

  it('parses presented keys and refuses anything else', () => {
    const { key, prefix } = generateApiKey('demo');
    expect(parsePresentedKey(key)).toEqual({ prefix, kind: 'demo' });
    expect(parsePresentedKey('sk_live_short')).toBeNull();
    expect(parsePresentedKey(`sk_test_${'a'.repeat(43)}`)).toBeNull();
    expect(parsePresentedKey(`${key} `)).toBeNull();
  });

  it('compares hashes in constant time and only equal digests match', () => {
    const a = hashApiKey('a');
    expect(hashesEqual(a, hashApiKey('a'))).toBe(true);
    expect(hashesEqual(a, hashApiKey('b'))).toBe(false);
    expect(hashesEqual(a, a.slice(0, 10))).toBe(false);
    expect(hashesEqual('', '')).toBe(false);
  });
});
