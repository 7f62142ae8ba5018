import { ZSTD_DICTIONARIES } from './event-record-zstd-dictionaries';
import { RecordZstd } from './record-zstd';

const dictionary = Buffer.from(ZSTD_DICTIONARIES['hpd_violations'] ?? '', 'base64');

/** Records of every shape: short, long, non-ASCII, empty, larger than any scratch buffer. */
function records(): string[] {
  const out: string[] = [];
  for (let i = 0; i < 500; i++) {
    out.push(JSON.stringify({ bin: 1000000 + i * 7919, class: 'ABC'[i % 3], note: 'é—漢'.repeat(i % 5), text: 'x'.repeat((i * 37) % 900), id: i }));
  }
  out.push('', '{}', 'y'.repeat(200 * 1024));
  return out;
}

describe('zstd records', () => {
  it('names the dictionary in byte 0, leaves the magic number out, and every record decompresses back', () => {
    const codec = new RecordZstd(dictionary);
    for (const text of records()) {
      const record = codec.compress(3, text);
      expect(record[0]).toBe(3);
      expect(codec.decompress(record)).toBe(text);
    }
  });

  it('writes the bytes it always wrote (a refresh compares stored records as bytes: an upgrade of zstd must not change them)', () => {
    const codec = new RecordZstd(dictionary);
    const text = '{"": "SEC. 27-2005 ADM CODE PROPERLY REPAIR THE BROKEN PLASTER", "class": "B", "story": "3", "building_id": 1171}';
    expect(codec.compress(3, text).toString('hex')).toBe('032071e50000382e22313137317d06fcc6a6d9833d684eda4d34ef5d43dbe0c50003');
    // a second codec on the same dictionary writes the same bytes
    expect(new RecordZstd(dictionary).compress(3, text).equals(codec.compress(3, text))).toBe(true);
  });

  it('does not compress well without its dictionary: the dictionary is what pays', () => {
    const text = records()[10];
    expect(new RecordZstd(dictionary).compress(3, text).length).toBeLessThan(new RecordZstd(Buffer.alloc(0)).compress(3, text).length);
  });
});
