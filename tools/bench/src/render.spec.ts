import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CURRENT_FIGURES } from './current-figures';
import { renderMarkdown } from './render';
import type { BenchmarkFile } from './results';

const docs = path.join(__dirname, '../../../docs');
const recorded = (): BenchmarkFile => JSON.parse(readFileSync(path.join(docs, 'benchmarks.json'), 'utf8')) as BenchmarkFile;

function currentRows(markdown: string): string[][] {
  const lines = markdown.split('\n');
  const start = lines.indexOf('## Current figures');
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.slice(2, -2).split(' | '));
  }
  return rows;
}

describe('renderMarkdown', () => {
  it('opens with the table of current figures, read from the latest run of each scale', () => {
    const markdown = renderMarkdown(recorded());
    const headings = markdown.split('\n').filter((l) => l.startsWith('## '));
    expect(headings[0]).toBe('## Current figures');
    const [header, , ...rows] = currentRows(markdown);
    expect(header).toEqual(['figure', 'value', 'target', 'command', 'machine', 'date', 'commit']);
    const ingest = rows.find((r) => r[0].startsWith('ingest of the whole city'));
    expect(ingest).toEqual([
      'ingest of the whole city (130.5M rows), index builds included',
      '37.9 min (57,298 rows/s)',
      '<= 60 min',
      '`npm run bench -- --scale 100 --no-build --data-dir /work/bench --database bhis_bench_100 --scoring-processes 2`',
      '2 CPUs (AMD EPYC), 23.5 GiB',
      '2026-11-29',
      '75395cb',
    ]);
    expect(rows.find((r) => r[0].startsWith('lookup p99'))?.[1]).toMatch(/^\d+ ms against \d+ ms: \d+(\.\d+)?x \(autocannon counts whole milliseconds\)$/);
    expect(rows).toHaveLength(CURRENT_FIGURES.length);
  });

  it('leaves out a figure the latest run did not measure, and says when a run recorded no commit', () => {
    const file = recorded();
    delete file.runs['100'].refresh;
    delete file.runs['10'].commit;
    const rows = currentRows(renderMarkdown(file)).slice(2);
    expect(rows.some((r) => r[0].startsWith('refresh'))).toBe(false);
    expect(rows.find((r) => r[0].startsWith('ingest of the 10% city'))?.[6]).toBe('not recorded');
  });

  it('shows the refresh by download beside the one loaded as files, and its own section in the run', () => {
    const file = recorded();
    const figure = (f: typeof file) => currentRows(renderMarkdown(f)).find((r) => r[0].startsWith('the 1% city refreshed by download'));
    expect(figure(file)?.[1]).toMatch(/^[\d.,]+ \+ [\d.,]+ = [\d.,]+ s \([\d,]+ rows\/s; files: [\d,]+ rows\/s\)$/);
    expect(renderMarkdown(file)).toContain('### Refresh through SODA');
    delete file.runs['1'].sodaRefresh;
    expect(figure(file)).toBeUndefined();
    expect(renderMarkdown(file)).not.toContain('### Refresh through SODA');
  });

  it('keeps the history in the JSON: no dated note and no dated heading in the file', () => {
    const file = recorded();
    const markdown = renderMarkdown(file);
    expect(file.notes?.length).toBeGreaterThan(0);
    for (const note of file.notes ?? []) expect(markdown).not.toContain(note.slice(0, 80));
    expect(markdown.split('\n').filter((l) => /^#+ .*\(?20[0-9]{2}-[0-9]{2}-[0-9]{2}/.test(l))).toEqual([]);
    expect(markdown).toContain('| scale | buildings | started | finished | commit | command |');
  });

  it('is what docs/benchmarks.md holds (`npm run bench -- --render-only` writes it again)', () => {
    expect(readFileSync(path.join(docs, 'benchmarks.md'), 'utf8')).toBe(renderMarkdown(recorded()));
  });
});
