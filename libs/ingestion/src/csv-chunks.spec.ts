import { parse } from 'csv-parse/sync';
import { CsvChunker, type CsvChunk } from './csv-chunks';

function chunksOf(text: string, minBytes: number, pieceBytes: number): CsvChunk[] {
  const bytes = Buffer.from(text, 'utf8');
  const chunker = new CsvChunker(minBytes);
  const out: CsvChunk[] = [];
  for (let at = 0; at < bytes.length; at += pieceBytes) out.push(...chunker.push(bytes.subarray(at, at + pieceBytes)));
  out.push(...chunker.end());
  return out;
}

const records = (text: string) => parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true }) as string[][];

/** A file with quoted fields, quoted newlines, doubled quotes, CRLF line ends and multibyte text. */
function sampleFile(rows: number): string {
  const lines = ['\uFEFFid,"name, with comma",note'];
  for (let i = 1; i <= rows; i++) {
    const note = i % 7 === 0 ? `"line one\nline two ""quoted"" ${i}"` : i % 5 === 0 ? `"é ${i}, ü"` : `plain ${i}`;
    lines.push(`${i},"name ${i}",${note}${i % 3 === 0 && note.startsWith('plain') ? '\r' : ''}`);
    if (i % 11 === 0) lines.push('');
  }
  return lines.join('\n') + '\n';
}

describe('CsvChunker', () => {
  const text = sampleFile(500);

  it.each([
    [64, 1],
    [64, 7],
    [300, 64],
    [1000, 333],
    [1 << 20, 4096],
  ])('cuts on record boundaries only (at least %i bytes a chunk, pushed %i bytes at a time)', (minBytes, pieceBytes) => {
    const chunks = chunksOf(text, minBytes, pieceBytes);
    expect(Buffer.concat(chunks.map((c) => c.bytes)).toString('utf8')).toBe(text);
    expect(chunks.map((c) => c.index)).toEqual(chunks.map((_, i) => i));
    const header = chunks[0].bytes.toString('utf8');
    expect(records(header)).toEqual([['id', 'name, with comma', 'note']]);
    // every body chunk read on its own after the header gives the records of the whole file, in order
    const whole = records(text);
    const pieced = [records(header)[0], ...chunks.slice(1).flatMap((c) => records(header + c.bytes.toString('utf8')).slice(1))];
    expect(pieced).toEqual(whole);
    for (const c of chunks.slice(1, -1)) expect(c.bytes.length).toBeGreaterThanOrEqual(Math.min(minBytes, c.bytes.length));
  });

  it('numbers the lines of each chunk as the lines of the file', () => {
    const chunks = chunksOf(text, 200, 50);
    const fileLines = text.split('\n');
    for (const c of chunks) {
      const first = c.bytes.toString('utf8').split('\n')[0];
      expect(fileLines[c.firstLine - 1]).toBe(first);
    }
    const last = chunks[chunks.length - 1];
    expect(last.firstLine + last.lines).toBe(fileLines.length);
  });

  it('keeps blank lines before the header with the header', () => {
    const chunks = chunksOf('\n\r\na,b\n1,2\n3,4\n', 1, 3);
    expect(chunks[0].bytes.toString()).toBe('\n\r\na,b\n');
    expect(chunks[0].lines).toBe(3);
    expect(chunks[1].firstLine).toBe(4);
  });

  it('leaves a file without a line end in one piece after its header', () => {
    expect(chunksOf('a,b\n1,2', 1, 2).map((c) => c.bytes.toString())).toEqual(['a,b\n', '1,2']);
    expect(chunksOf('a,b', 1, 2).map((c) => c.bytes.toString())).toEqual(['a,b']);
  });

  it('never cuts inside a quoted field, however long', () => {
    const long = `a,b\n1,"${'x\n'.repeat(1000)}"\n2,3\n`;
    for (const pieceBytes of [1, 100, 5000]) {
      const chunks = chunksOf(long, 10, pieceBytes);
      expect(chunks.slice(1).map((c) => records(`a,b\n${c.bytes.toString()}`).length - 1)).toEqual(chunks.length === 3 ? [1, 1] : [2]);
    }
  });
});
