import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { RECORD_DICTIONARIES } from './event-record-dictionaries';
import { RecordDeflate } from './record-deflate';

const OPTIONS = { level: 9, windowBits: 12, memLevel: 4 } as const;

/** Records of every shape a source writes: short, long, non-ASCII, repeated, and one past the stream's buffer. */
function records(): string[] {
  const out: string[] = [];
  for (let i = 0; i < 2000; i++) {
    out.push(JSON.stringify({ bin: 1000000 + i * 7919, class: 'ABC'[i % 3], note: 'é—漢'.repeat(i % 5), text: 'x'.repeat((i * 37) % 900), id: i }));
  }
  out.push('', '{}', 'y'.repeat(70 * 1024), JSON.stringify({ z: 'z'.repeat(20_000) }));
  return out;
}

describe('record deflate on a reused stream', () => {
  it.each([
    ['with a dictionary', Buffer.from(RECORD_DICTIONARIES['hpd_violations'] ?? '', 'utf8')],
    ['without one', null],
  ])('writes byte for byte what deflateRawSync writes, %s, and every record inflates back', (_name, dictionary) => {
    const options = dictionary ? { ...OPTIONS, dictionary } : OPTIONS;
    const deflater = new RecordDeflate(options);
    for (const text of records()) {
      const record = deflater.compress(7, text);
      expect(record[0]).toBe(7);
      expect(record.subarray(1).equals(deflateRawSync(Buffer.from(text, 'utf8'), options))).toBe(true);
      expect(inflateRawSync(record.subarray(1), dictionary ? { dictionary } : {}).toString('utf8')).toBe(text);
    }
    // the records went through the reused stream (the fast path), not only through the fallback
    expect(deflater.reusesStream).toBe(true);
  });
});
