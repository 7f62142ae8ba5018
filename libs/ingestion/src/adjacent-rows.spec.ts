import type { NormalizedEvent } from '@bhis/domain';
import { AdjacentRows, DistinctItems, type StagedEvent } from './adjacent-rows';

function complaint(id: string, severity: NormalizedEvent['severity'], on: string, closed: string | null, problemId: number, key311?: string): NormalizedEvent {
  return {
    bbl: '1000010001', source: 'hpd_complaints', source_record_id: id, event_type: 'hpd_complaint', category: 'habitability',
    severity, status: closed ? 'closed' : 'open', occurred_on: on, closed_on: closed, description: `problem ${problemId}`,
    attributes: { complaint_id: Number(id), problems: [{ problem_id: problemId }], unique_keys_311: key311 ? [key311] : [] },
    scoring_excluded: false,
  };
}

function stageAll(enabled: boolean, rows: NormalizedEvent[]): StagedEvent[] {
  const grouping = new AdjacentRows(enabled);
  const staged = rows.map((event, i) => grouping.push(i + 2, event)).filter((s): s is StagedEvent => s !== null);
  const last = grouping.flush();
  return last ? [...staged, last] : staged;
}

describe('rows of one record that follow each other', () => {
  it('are staged as one row led by the most severe, with the earliest date, the latest closing and the union of lists', () => {
    const staged = stageAll(true, [
      complaint('7', 'low', '2024-02-01', '2024-03-01', 1, '311-a'),
      complaint('7', 'high', '2024-01-15', null, 2, '311-a'),
      complaint('7', 'high', '2024-03-01', '2024-04-01', 1, '311-b'),
      complaint('8', 'medium', '2024-05-01', null, 3),
    ]);
    expect(staged.map((s) => [s.line, s.rows, s.event.source_record_id])).toEqual([[3, 3, '7'], [5, 1, '8']]);
    const seven = staged[0].event;
    expect(seven).toMatchObject({ severity: 'high', description: 'problem 2', status: 'open', occurred_on: '2024-01-15', closed_on: '2024-04-01' });
    expect(seven.attributes).toEqual({ complaint_id: 7, problems: [{ problem_id: 1 }, { problem_id: 2 }], unique_keys_311: ['311-a', '311-b'] });
  });

  it('keep the first row as the leader when severities tie, and leave a single row as it is', () => {
    const first = complaint('7', 'low', '2024-02-01', null, 1);
    const [group] = stageAll(true, [first, complaint('7', 'low', '2024-01-01', null, 2)]);
    expect(group).toMatchObject({ line: 2, rows: 2, event: { description: 'problem 1', occurred_on: '2024-01-01' } });
    const [alone] = stageAll(true, [first]);
    expect(alone.event).toBe(first);
  });

  it('are not grouped when the key differs in BBL or type, or when grouping is off', () => {
    const a = complaint('7', 'low', '2024-02-01', null, 1);
    expect(stageAll(true, [a, { ...a, bbl: '1000010002' }, { ...a, event_type: 'hpd_violation' }])).toHaveLength(3);
    expect(stageAll(false, [a, a, a]).map((s) => s.rows)).toEqual([1, 1, 1]);
  });

  it('put a complaint\'s lists in the order the merge stores them, where that order does not depend on the database', () => {
    const [group] = stageAll(true, [
      complaint('7', 'low', '2024-02-01', null, 30, '420'),
      complaint('7', 'low', '2024-02-01', null, 4, '1337'),
      complaint('7', 'low', '2024-02-01', null, 12, '420'),
    ]);
    expect(group.event.attributes).toMatchObject({ problems: [{ problem_id: 4 }, { problem_id: 12 }, { problem_id: 30 }], unique_keys_311: ['1337', '420'] });
    expect(group.listsOrdered).toBe(true);
    const [unordered] = stageAll(true, [complaint('8', 'low', '2024-02-01', null, 2, 'b-1'), complaint('8', 'low', '2024-02-01', null, 1, 'a-1')]);
    // keys that are not all digits are left in file order for the merge to sort under the database's collation
    expect(unordered.event.attributes.unique_keys_311).toEqual(['b-1', 'a-1']);
    expect(unordered.listsOrdered).toBe(false);
    const [missing] = stageAll(true, [{ ...complaint('9', 'low', '2024-02-01', null, 1), attributes: { complaint_id: 9 } }]);
    expect(missing.listsOrdered).toBe(false);
  });
});

describe('distinct list items', () => {
  it('keep each jsonb value once, in the order first seen, whatever its key order', () => {
    const items = new DistinctItems();
    for (const item of [
      { problem_id: 2, code: 'MICE', duplicate: false },
      { problem_id: 1, code: 'HEAT' },
      { duplicate: false, code: 'MICE', problem_id: 2 }, // the first, keys in another order
      { problem_id: 2, code: 'ROACHES' }, // the same id, another problem
      { problem_id: '2', code: 'MICE', duplicate: false }, // an id of another type
      '311-a',
      '311-a',
      { code: 'NO ID' },
      { code: 'NO ID' },
    ]) items.add(item);
    expect(items.items).toEqual([
      { problem_id: 2, code: 'MICE', duplicate: false },
      { problem_id: 1, code: 'HEAT' },
      { problem_id: 2, code: 'ROACHES' },
      { problem_id: '2', code: 'MICE', duplicate: false },
      '311-a',
      { code: 'NO ID' },
    ]);
  });
});
