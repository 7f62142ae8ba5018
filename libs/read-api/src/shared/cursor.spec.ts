import { CursorCodec } from './cursor';

describe('CursorCodec signing key', () => {
  const SECRET = 'a'.repeat(32);

  it('accepts a cursor signed by another instance with the same CURSOR_SECRET', () => {
    const cursor = CursorCodec.fromSecret(SECRET).encode('events', 'key-a', 'f', ['1000010001', 5]);
    expect(CursorCodec.fromSecret(SECRET).decode('events', 'key-a', 'f', cursor, ['bbl', 'int'])).toEqual(['1000010001', 5]);
  });

  it('refuses a cursor signed with another CURSOR_SECRET', () => {
    const cursor = CursorCodec.fromSecret('b'.repeat(32)).encode('events', 'key-a', 'f', ['1000010001', 5]);
    expect(() => CursorCodec.fromSecret(SECRET).decode('events', 'key-a', 'f', cursor, ['bbl', 'int'])).toThrow(/not a valid cursor/);
  });

  it('without CURSOR_SECRET, signs with a random key of the process (nothing derived from other settings)', () => {
    const cursor = CursorCodec.fromSecret(undefined).encode('events', 'key-a', 'f', ['1000010001', 5]);
    expect(() => CursorCodec.fromSecret(undefined).decode('events', 'key-a', 'f', cursor, ['bbl', 'int'])).toThrow(/not a valid cursor/);
  });

  it('binds a cursor to the key it was issued to', () => {
    const codec = CursorCodec.fromSecret(SECRET);
    const cursor = codec.encode('events', 'key-a', 'f', ['1000010001', 5]);
    expect(codec.decode('events', 'key-a', 'f', cursor, ['bbl', 'int'])).toEqual(['1000010001', 5]);
    expect(() => codec.decode('events', 'key-b', 'f', cursor, ['bbl', 'int'])).toThrow(/not a valid cursor/);
  });
});
