import { parseSodaRows, sodaRowToValues } from './parse';
import { getSource } from './registry';
import { expectBalanced } from './testing/fixtures';

describe('SODA JSON rows', () => {
  it('run through the same mapper as the CSV export', async () => {
    const rows = [
      {
        violationid: '10000104',
        buildingid: '80102',
        boroid: '2',
        block: '2482',
        lot: '30',
        class: 'C',
        inspectiondate: '2013-10-08T00:00:00.000',
        ordernumber: '583',
        novdescription: 'SECTION 27-2005 ADM CODE TRACE AND REPAIR THE SOURCE OF WATER LEAK',
        violationstatus: 'Open',
        bbl: '2024820030',
        bin: '2002971',
      },
      { violationid: '10000105', boroid: '2', block: '2482', lot: '30', class: 'A', inspectiondate: 'garbage' },
    ];
    const run = parseSodaRows(getSource('hpd_violations'), rows);
    const records = [];
    for await (const record of run) records.push(record);
    expectBalanced(run.counters);
    expect(run.counters).toMatchObject({ read: 2, ok: 1, quarantined: 1, quarantinedByReason: { invalid_date: 1 } });
    expect(records[0].outcome).toMatchObject({
      kind: 'ok',
      events: [{ bbl: '2024820030', source_record_id: '10000104', category: 'water_damage', severity: 'critical', occurred_on: '2013-10-08', status: 'open' }],
    });
    expect(records[1].raw).toContain('"garbage"');
  });

  it('maps field names to display columns, renamed parts included', () => {
    const part = getSource('dof_tax_liens').parts[0];
    const values = sodaRowToValues(part, { month: '04/2019', block: 16, water_debt_only: false });
    expect(values.get('Month')).toBe('04/2019');
    expect(values.get('Block')).toBe('16');
    expect(values.get('Water Debt Only')).toBe('false');
    expect(values.get('Cycle')).toBe('');
  });
});
