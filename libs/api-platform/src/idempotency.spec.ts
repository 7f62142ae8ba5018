import { canonicalJson, parseIdempotencyKey } from './idempotency';

describe('Idempotency-Key header', () => {
  it('reads an sf-string or a bare value', () => {
    expect(parseIdempotencyKey(undefined)).toBeNull();
    expect(parseIdempotencyKey('"8e03978e-40d5-43e8-bc93-6894a57f9324"')).toBe('8e03978e-40d5-43e8-bc93-6894a57f9324');
    expect(parseIdempotencyKey('8e03978e-40d5-43e8-bc93-6894a57f9324')).toBe('8e03978e-40d5-43e8-bc93-6894a57f9324');
    expect(parseIdempotencyKey('"with space and \\"quote\\""')).toBe('with space and "quote"');
    expect(parseIdempotencyKey('k'.repeat(255))).toHaveLength(255);
  });

  it.each([['""'], ['k'.repeat(256)], ['two words'], ['a, b'], ['"open'], ['"bad \\x"'], ['caf\u00e9']])('refuses %s with invalid_idempotency_key', (value) => {
    expect(() => parseIdempotencyKey(value)).toThrow(expect.objectContaining({ code: 'invalid_idempotency_key', status: 400 }));
  });

  it('refuses a header sent twice', () => {
    expect(() => parseIdempotencyKey(['a', 'b'])).toThrow(expect.objectContaining({ code: 'invalid_idempotency_key' }));
  });

  it('fingerprints a body by its content, not its spelling', () => {
    expect(canonicalJson({ b: [1, { d: null, c: 'x' }], a: true })).toBe('{"a":true,"b":[1,{"c":"x","d":null}]}');
    expect(canonicalJson(JSON.parse('{ "b" : 1, "a" : 2 }'))).toBe(canonicalJson({ a: 2, b: 1 }));
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
  });
});
