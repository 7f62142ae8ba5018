import { jsonDepthExceeds } from './json-depth';

describe('jsonDepthExceeds', () => {
  it('measures nesting of objects and arrays, not of scalars', () => {
    expect(jsonDepthExceeds({ bbls: ['1000010001'] }, 2)).toBe(false);
    expect(jsonDepthExceeds({ a: { b: { c: 1 } } }, 2)).toBe(true);
    expect(jsonDepthExceeds('text', 0)).toBe(false);
  });

  it('walks extreme depth without overflowing the stack', () => {
    expect(jsonDepthExceeds(JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`), 64)).toBe(true);
  });
});
