import { CursorCodec } from './cursor';

describe('CursorCodec signing key', () => {
  const SECRET = 'a'.repeat(32);

  it('accepts a cursor signed by another instance with the same CURSOR_SECRET', () => {
    const cursor = CursorCodec.fromSecret(SECRET).encode('events', 'f', ['1000010001', 5]);
    expect(CursorCodec.fromSecret(SECRET).decode('events', 'f', cursor, ['bbl', 'int'])).toEqual(['1000010001', 5]);
  });

  it('refuses a cursor signed with another CURSOR_SECRET', () => {
    const cursor = CursorCodec.fromSecret('b'.repeat(32)).encode('events', 'f', ['1000010001', 5]);
    expect(() => CursorCodec.fromSecret(SECRET).decode('events', 'f', cursor, ['bbl', 'int'])).toThrow(/not a valid cursor/);
  });

  it('without CURSOR_SECRET, signs with a random key of the process (nothing derived from other settings)', () => {
    const cursor = CursorCodec.fromSecret(undefined).encode('events', 'f', ['1000010001', 5]);
    expect(() => CursorCodec.fromSecret(undefined).decode('events', 'f', cursor, ['bbl', 'int'])).toThrow(/not a valid cursor/);
  });
});
