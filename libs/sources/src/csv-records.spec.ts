import { parse } from 'csv-parse/sync';
import { Readable } from 'node:stream';
import { csvRecords, CsvRecord, CsvUnreadable, LineFilter } from './csv-records';

async function read(text: string, chunkSize = 7, filter?: LineFilter): Promise<(CsvRecord | CsvUnreadable)[]> {
  const chunks: Buffer[] = [];
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.length; at += chunkSize) chunks.push(bytes.subarray(at, at + chunkSize));
  const out: (CsvRecord | CsvUnreadable)[] = [];
  for await (const record of csvRecords(Readable.from(chunks), filter)) out.push(record);
  return out;
}

/** What csv-parse makes of the same text, with the options the strict reader uses. */
function strict(text: string): string[][] {
  return parse(text, { bom: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true }) as string[][];
}

describe('csvRecords', () => {
  const wellFormed = [
    'a,b,c\n1,2,3\n4,5,6\n',
    'a,b,c\r\n1,2,3\r\n4,,6',
    '\ufeffa,b\n"x, y","say ""hi"""\n"multi\nline",é€😀\n',
    'a,b\n\n1,2\n\n\n3,4\n',
    'a,b\n1,he said "no"\n',
    'a,b\n"",""\n,\n',
  ];

  it.each(wellFormed)('reads well-formed files as csv-parse does, whatever the chunking (%#)', async (text) => {
    for (const size of [1, 3, 7, 1 << 16]) {
      const records = await read(text, size);
      expect(records.every((r) => !('unreadable' in r))).toBe(true);
      expect(records.map((r) => (r as CsvRecord).fields)).toEqual(strict(text));
    }
  });

  it('keeps each record as read and the line it starts on', async () => {
    const records = (await read('h1,h2\n"a\nb",1\n\nc,2\n')) as CsvRecord[];
    expect(records.map((r) => [r.lineNumber, r.raw])).toEqual([
      [1, 'h1,h2\n'],
      [2, '"a\nb",1\n'],
      [5, 'c,2\n'],
    ]);
  });

  it('hands odd quoting to the strict reader from that record on, with the right line numbers', async () => {
    const text = 'a,b,c\n1,2,3\n1,"40"1,3\n4,5,6\n"7\n8",9,10\n';
    const records = await read(text, 5);
    const fields = records.filter((r): r is CsvRecord => !('unreadable' in r));
    const unreadable = records.filter((r): r is CsvUnreadable => 'unreadable' in r);
    expect(fields[0].fields).toEqual(['a', 'b', 'c']);
    expect(fields[1]).toMatchObject({ fields: ['1', '2', '3'], lineNumber: 2 });
    expect(fields.find((r) => r.fields[0] === '4')?.lineNumber).toBe(4);
    expect(fields.find((r) => r.fields[0] === '7\n8')?.lineNumber).toBe(5);
    expect(fields.length + unreadable.length).toBe(5);
  });

  it('reads an unterminated quote at the end of the file through the strict reader without throwing', async () => {
    const records = await read('a,b\n1,2\n"3,4\n');
    expect(records[0]).toMatchObject({ fields: ['a', 'b'] });
    expect(records[1]).toMatchObject({ fields: ['1', '2'] });
    expect(records.length).toBeGreaterThanOrEqual(2);
  });

  it('leaves out the records a filter knows by their text, quoted or not, and numbers every line as before', async () => {
    const text = 'a,b\n1,2\n"x\ny",3\n4,5\n"p",6\n';
    const known = new Set(['1,2\n', '"x\ny",3\n']);
    const met: [string, number][] = [];
    const filter: LineFilter = { known: null };
    const out: (CsvRecord | CsvUnreadable)[] = [];
    for await (const record of csvRecords(Readable.from([Buffer.from(text)]), filter)) {
      out.push(record);
      filter.known = (t, start, end, line) => {
        if (!known.has(t.slice(start, end))) return false;
        met.push([t.slice(start, end), line]);
        return true;
      };
    }
    expect(out).toEqual([
      { fields: ['a', 'b'], raw: 'a,b\n', lineNumber: 1 },
      { fields: ['4', '5'], raw: '4,5\n', lineNumber: 5 },
      { fields: ['p', '6'], raw: '"p",6\n', lineNumber: 6 },
    ]);
    expect(met).toEqual([['1,2\n', 2], ['"x\ny",3\n', 3]]);
    // without a filter, or one that knows nothing, the same records as ever
    const plain = await read(text, 3);
    expect(await read(text, 3, { known: () => false })).toEqual(plain);
  });
});
