import { NormalizedEvent } from '@bhis/domain';
import { mergeHpdComplaintEvents } from './hpd-complaint-merge';
import { getSource } from './registry';
import { parseFile, sharedFixture } from './testing/fixtures';

describe('mergeHpdComplaintEvents', () => {
  it('folds the problem rows of one complaint into one event', async () => {
    const file = await parseFile(getSource('hpd_complaints'), sharedFixture('hpd_complaints_and_problems.csv'));
    const rows = file.events.filter((event) => event.source_record_id === '8616780');
    const merged = rows.reduce((a: NormalizedEvent, b: NormalizedEvent) => mergeHpdComplaintEvents(a, b));
    expect(merged.attributes['problems']).toHaveLength(3);
    expect(merged.attributes['unique_keys_311']).toEqual(['37087395', '37091369', '37089903']);
    expect(merged.occurred_on).toBe('2017-09-01');
    expect(() => mergeHpdComplaintEvents(rows[0], file.events[0])).toThrow(/different records/);
  });
});
