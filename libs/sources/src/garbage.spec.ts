import { Readable } from 'node:stream';
import { parseSource } from './parse';
import { getSource } from './registry';
import { expectBalanced, localFixture, parseFile, sharedFixture } from './testing/fixtures';

describe('a file with garbage rows', () => {
  it('keeps the good rows and quarantines the rest with reasons', async () => {
    const file = await parseFile(getSource('hpd_violations'), localFixture('garbage_hpd_violations.csv'));
    expectBalanced(file.counters);
    expect(file.counters).toMatchObject({
      read: 8,
      ok: 3,
      quarantined: 5,
      quarantinedByReason: { wrong_column_count: 2, invalid_date: 1, no_bbl: 1, missing_record_key: 1 },
    });
    expect(file.counters.castFailures).toMatchObject({ InspectionDate: 1, BBL: 1, BoroID: 1, Block: 1 });
    const byLine = new Map(file.records.map((record) => [record.lineNumber, record]));
    expect(byLine.get(4)?.outcome).toMatchObject({ kind: 'quarantined', reason: 'wrong_column_count' });
    expect(byLine.get(4)?.raw).toBe('10000100,371632,337935,3,BROOKLYN,5603\n');
    expect(byLine.get(6)?.outcome).toMatchObject({ kind: 'quarantined', reason: 'invalid_date' });
    const leak = file.events.find((event) => event.source_record_id === '10000104');
    expect(leak).toMatchObject({ category: 'water_damage', severity: 'critical', status: 'open', bbl: '2024820030' });
    expect(leak?.description).toContain('"QUOTED"');
  });

  it('survives broken quoting without aborting the file', async () => {
    const header = (await import('node:fs')).readFileSync(sharedFixture('dof_tax_lien_sale_list.csv'), 'utf8').split('\n')[0];
    const lines = [
      header,
      '04/2019,90 Day Notice,1,16,3,4,Z9,101,1,401,SOUTH END AVENUE,10280,NO',
      '04/2019,"90 Day" Notice,1,17,1,4,Z9,101,1,"40"1,WEST STREET,10006,NO',
      '04/2019,90 Day Notice,1,18,7,4,Z9,101,1,5,BROAD STREET,10004,NO',
    ];
    const run = parseSource(getSource('dof_tax_liens'), Readable.from([lines.join('\n') + '\n']));
    const records = [];
    for await (const record of run) records.push(record);
    expectBalanced(run.counters);
    expect(run.counters.read).toBe(3);
    expect(run.counters.ok).toBeGreaterThanOrEqual(2);
  });

  it('quarantines a record that holds a NUL character, keeping its raw text with U+FFFD in its place', async () => {
    const header = 'Month,Cycle,Borough,Block ,Lot,Tax Class Code,Building Class,Community Board,Council District,House Number,Street Name,Zip Code,Water Debt Only';
    const body = ['04/2019,90 Day Notice,1,16,3,4,Z9,101,1,401,SOUTH\u0000END AVENUE,10280,NO', '04/2019,90 Day Notice,1,18,7,4,Z9,101,1,5,BROAD STREET,10004,NO'];
    const run = parseSource(getSource('dof_tax_liens'), Readable.from([[header, ...body].join('\n') + '\n']));
    const records = [];
    for await (const record of run) records.push(record);
    expectBalanced(run.counters);
    expect(run.counters).toMatchObject({ read: 2, ok: 1, quarantined: 1, quarantinedByReason: { unstorable_text: 1 } });
    expect(records[0]).toMatchObject({ lineNumber: 2, outcome: { kind: 'quarantined', reason: 'unstorable_text' } });
    expect(records[0].raw).toBe('04/2019,90 Day Notice,1,16,3,4,Z9,101,1,401,SOUTH\uFFFDEND AVENUE,10280,NO\n');
  });

  it('reports the starting line of records that span lines', async () => {
    const header = 'Month,Cycle,Borough,Block ,Lot,Tax Class Code,Building Class,Community Board,Council District,House Number,Street Name,Zip Code,Water Debt Only';
    const body = ['04/2019,90 Day Notice,1,16,3,4,Z9,101,1,401,"SOUTH\nEND AVENUE",10280,NO', '04/2019,90 Day Notice,1,18,7,4,Z9,101,1,5,BROAD STREET,10004,NO'];
    const run = parseSource(getSource('dof_tax_liens'), Readable.from([[header, ...body].join('\n') + '\n']));
    const lines: number[] = [];
    for await (const record of run) lines.push(record.lineNumber);
    expect(lines).toEqual([2, 4]);
  });
});
