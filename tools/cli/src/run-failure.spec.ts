import { runFailureText } from './run-failure';

describe("a failed run's error as the CLI prints it", () => {
  const run = { id: 'r1', source: 'hpd_litigations', status: 'failed' as const, error: 'header of hpd_litigations (main) does not match its definition' };

  it('lists a wrong file\'s columns one list each, in lines of at most 100 characters, and the source it matches', () => {
    const missing = Array.from({ length: 30 }, (_, i) => `Column Name ${i}`);
    const text = runFailureText({
      ...run,
      error_detail: { source: 'hpd_litigations', part: 'main', missing_columns: missing, unexpected_columns: ['ViolationID'], closest_source: { source: 'hpd_violations', part: 'main', matched: 40, columns: 41 } },
    });
    expect(text).toContain("Run r1 of hpd_litigations failed: the file's header is not one of hpd_litigations (main).");
    expect(text).toContain('  Missing columns (30):\n    Column Name 0, Column Name 1,');
    expect(text).toContain('  Unexpected columns (1):\n    ViolationID');
    expect(text).toMatch(/load it with --source\s+hpd_violations\./);
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
    // every column is there
    for (const name of missing) expect(text).toContain(name);
  });

  it('wraps any other message', () => {
    const text = runFailureText({ ...run, error: 'word '.repeat(60).trim(), error_detail: null });
    expect(text.split('\n').length).toBeGreaterThan(3);
    expect(text.split('\n')[1]).toMatch(/^ {2}word/);
  });
});
