import { KnownLines, LineHasher, toBigInt } from './line-hashes';

describe('line hashes', () => {
  const hasher = new LineHasher('hpd_violations', ['ViolationID', 'BBL'], undefined);

  it('hash a line alike with either line ending, in place or whole, and another header or line otherwise', () => {
    const lf = hasher.hash('1,1000010001\n');
    expect(hasher.hash('1,1000010001\r\n')).toBe(lf);
    expect(hasher.hash('1,1000010001')).toBe(lf);
    hasher.hashRange('a,b\n1,1000010001\nz', 4, 17);
    expect(toBigInt(hasher.hi, hasher.lo)).toBe(lf);
    expect(hasher.hash('2,1000010001\n')).not.toBe(lf);
    expect(new LineHasher('hpd_violations', ['ViolationID', 'BBL', 'X'], undefined).hash('1,1000010001\n')).not.toBe(lf);
    expect(new LineHasher('dob_violations', ['ViolationID', 'BBL'], undefined).hash('1,1000010001\n')).not.toBe(lf);
  });

  it('find the stored hashes, negative and positive, by their two halves', () => {
    const lines = Array.from({ length: 2000 }, (_, i) => hasher.hash(`${i},1000010001\n`));
    const sorted = BigInt64Array.from([...lines].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const known = new KnownLines(sorted);
    expect(sorted.some((h) => h < 0n) && sorted.some((h) => h > 0n)).toBe(true);
    expect(lines.every((h) => known.has(h))).toBe(true);
    expect(known.has(hasher.hash('2000,1000010001\n'))).toBe(false);
    hasher.hashRange('7,1000010001\n', 0, 13);
    const at = known.indexOf(hasher.hi, hasher.lo);
    expect(sorted[at]).toBe(lines[7]);
    known.meet(at, 9);
    expect([known.seen[at], known.lines[at]]).toEqual([1, 9]);
  });
});
