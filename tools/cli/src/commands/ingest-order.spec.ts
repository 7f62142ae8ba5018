import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { largestFirst } from './ingest';

describe('event files of a directory', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bhis-order-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, bytes: number) => {
    const at = path.join(dir, name);
    writeFileSync(at, 'x'.repeat(bytes));
    return at;
  };

  it('are queued largest first', () => {
    const files = [
      { file: file('small.csv', 10), source: 'hpd_litigations' },
      { file: file('311-older.csv', 30), source: 'nyc311' },
      { file: file('311-current.csv', 40), source: 'nyc311' },
      { file: file('violations.csv', 60), source: 'hpd_violations' },
    ];
    expect(largestFirst(files).map((f) => path.basename(f.file))).toEqual(['violations.csv', '311-current.csv', '311-older.csv', 'small.csv']);
  });
});
