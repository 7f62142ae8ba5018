import type { ParseCounters } from '@bhis/sources';
import { idsAcrossChunks, ReceivedChunks, sumCounters } from './staged-chunks';

const segment = (chunk: number, first: string, last: string, increasing = true) => ({ chunk, first, last, increasing });

describe('idsAcrossChunks', () => {
  it('finds ids distinct when each chunk is in order and the chunks follow each other', () => {
    expect(idsAcrossChunks([segment(3, '30', '39'), segment(1, '9', '19'), segment(2, '20', '29')])).toEqual({ distinct: true, repeatsOnly: [] });
    expect(idsAcrossChunks([])).toEqual({ distinct: true, repeatsOnly: [] });
  });

  it('names the ids that end one chunk and start the next: a record cut in two', () => {
    expect(idsAcrossChunks([segment(1, '10', '19'), segment(2, '19', '29'), segment(3, '29', '29'), segment(4, '29', '35')])).toEqual({
      distinct: false,
      repeatsOnly: ['19', '29'],
    });
  });

  it('gives up on a chunk out of order or chunks that overlap', () => {
    expect(idsAcrossChunks([segment(1, '10', '19', false), segment(2, '20', '29')])).toEqual({ distinct: false, repeatsOnly: null });
    expect(idsAcrossChunks([segment(1, '10', '25'), segment(2, '20', '29')])).toEqual({ distinct: false, repeatsOnly: null });
    // shorter ids come first: '9' < '10'
    expect(idsAcrossChunks([segment(1, '10', '10'), segment(2, '9', '12')])).toEqual({ distinct: false, repeatsOnly: null });
  });
});

describe('sumCounters', () => {
  const counters = (n: number, reason: string): ParseCounters => ({
    source: 'hpd_complaints', part: null, variant: 'current', ignoredColumns: [], followedColumns: [], read: 10 * n, ok: 7 * n, unchangedLines: n, quarantined: n, quarantinedByReason: { [reason]: n },
    notRelevant: n, notRelevantByReason: { no_bbl: n }, castFailures: { 'Received Date': n }, unmappedWords: {}, unknownFields: {}, events: 8 * n, facts: 0,
  });

  it('adds the counts and the counts by reason of every thread', () => {
    const sum = sumCounters([counters(1, 'wrong_column_count'), counters(2, 'unparseable_row')]);
    expect(sum).toMatchObject({ read: 30, ok: 21, unchangedLines: 3, quarantined: 3, notRelevant: 3, events: 24, variant: 'current' });
    expect(sum.quarantinedByReason).toEqual({ wrong_column_count: 1, unparseable_row: 2 });
    expect(sum.castFailures).toEqual({ 'Received Date': 3 });
  });
});

describe('ReceivedChunks', () => {
  it('numbers a thread\'s lines as the lines of the file, and tells the chunk of each', () => {
    const chunks = new ReceivedChunks();
    chunks.add({ index: 0, firstLine: 1, lines: 1 });
    chunks.add({ index: 2, firstLine: 40, lines: 10 });
    chunks.add({ index: 4, firstLine: 90, lines: 5 });
    expect(chunks.locate(2)).toEqual({ line: 40, chunk: 2 });
    expect(chunks.locate(11)).toEqual({ line: 49, chunk: 2 });
    expect(chunks.locate(12)).toEqual({ line: 90, chunk: 4 });
    expect(chunks.locate(17)).toEqual({ line: 95, chunk: 4 });
  });
});
