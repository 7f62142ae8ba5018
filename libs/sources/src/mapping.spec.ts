import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { recordIdValue } from './mapping';
import { parseSource } from './parse';
import { getSource } from './registry';
import { sharedFixture } from './testing/fixtures';

describe('recordIdValue', () => {
  it('keeps a whole-number id as a number and any other id as its text', () => {
    expect(recordIdValue('10000000')).toBe(10000000);
    expect(recordIdValue('V-12')).toBe('V-12');
    expect(recordIdValue('12.5')).toBe('12.5');
    // beyond what a double holds exactly
    expect(recordIdValue('12345678901234567890')).toBe('12345678901234567890');
  });

  it('stores a violation id that is not a number in the attributes, not null', async () => {
    const [header, first] = readFileSync(sharedFixture('hpd_violations.csv'), 'utf8').split('\n');
    const rows = [first, first.replace(/^10000000,/, 'V-12,')];
    const run = parseSource(getSource('hpd_violations'), Readable.from([[header, ...rows].join('\n') + '\n']));
    const ids: unknown[] = [];
    for await (const record of run) {
      if (record.outcome.kind === 'ok') ids.push(...record.outcome.events.map((event) => event.attributes.violation_id));
    }
    expect(ids).toEqual([10000000, 'V-12']);
  });
});
