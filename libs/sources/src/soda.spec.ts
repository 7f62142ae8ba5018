import { parseSodaRows, sodaRowToValues } from './parse';
import { getSource } from './registry';
import { sodaFieldMap } from './soda-fields';
import { expectBalanced, mapResolver, sodaMetadataFixture } from './testing/fixtures';

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

  it('quarantines a row that holds a NUL character', async () => {
    const row = { violationid: '10000104', boroid: '2', block: '2482', lot: '30', class: 'C', inspectiondate: '2013-10-08T00:00:00.000', novdescription: 'WATER\u0000LEAK', bbl: '2024820030' };
    const run = parseSodaRows(getSource('hpd_violations'), [row]);
    const records = [];
    for await (const record of run) records.push(record);
    expect(run.counters).toMatchObject({ read: 1, quarantined: 1, quarantinedByReason: { unstorable_text: 1 } });
    expect(records[0].raw).toContain('WATER\\u0000LEAK');
  });

  it('quarantines a row that holds a lone surrogate, which JSON can escape and jsonb refuses', async () => {
    const rows = JSON.parse(
      '[{"violationid": "10000104", "boroid": "2", "block": "2482", "lot": "30", "class": "C", "inspectiondate": "2013-10-08", "novdescription": "WATER \\ud800 LEAK", "bbl": "2024820030"},' +
        ' {"violationid": "10000105", "boroid": "2", "block": "2482", "lot": "30", "class": "C", "inspectiondate": "2013-10-08", "novdescription": "A PAIR \\ud83d\\ude00", "bbl": "2024820030"}]',
    );
    const run = parseSodaRows(getSource('hpd_violations'), rows);
    const records = [];
    for await (const record of run) records.push(record);
    expect(run.counters).toMatchObject({ read: 2, ok: 1, quarantined: 1, quarantinedByReason: { unstorable_text: 1 } });
    expect(records[0].outcome).toMatchObject({ reason: 'unstorable_text', detail: expect.stringContaining('surrogate') });
  });

  it('maps field names to display columns, renamed parts included', () => {
    const part = getSource('dof_tax_liens').parts[0];
    const values = sodaRowToValues(part, { month: '04/2019', block: 16, water_debt_only: false });
    expect(values.get('Month')).toBe('04/2019');
    expect(values.get('Block')).toBe('16');
    expect(values.get('Water Debt Only')).toBe('false');
    expect(values.get('Cycle')).toBe('');
  });

  /** One row read through the data set's published view metadata (test-fixtures/soda-metadata). */
  async function one(source: string, row: Record<string, unknown>, part?: string) {
    const definition = getSource(source);
    const sourcePart = definition.parts.find((candidate) => (part ? candidate.part === part : candidate.datasetId)) as (typeof definition.parts)[number];
    const sodaFields = sodaFieldMap(definition, sourcePart, sodaMetadataFixture(sourcePart.datasetId as string).columns);
    const run = parseSodaRows(definition, [row], { part, resolver: mapResolver(), sodaFields });
    const records = [];
    for await (const record of run) records.push(record);
    return { outcome: records[0].outcome, counters: run.counters };
  }

  // Field names as the data sets publish them (docs/sources.md says where each is confirmed)
  it('hpd_vacate_orders: actual_rescind_date keeps a rescinded order rescinded', async () => {
    const { outcome } = await one('hpd_vacate_orders', {
      building_id: '12345', vacate_order_number: '987', primary_vacate_reason: 'Fire Damage', vacate_type: 'Entire Building',
      vacate_effective_date: '2024-01-05T00:00:00.000', actual_rescind_date: '2024-06-30T00:00:00.000', number_of_vacated_units: '12',
      boro_short_name: 'BK', house_number: '12', street_name: 'MAIN STREET', bbl: '3012340001', bin: '3000001',
    });
    expect(outcome).toMatchObject({ kind: 'ok', events: [{ source_record_id: '987', status: 'rescinded', closed_on: '2024-06-30', attributes: { units_vacated: 12 } }] });
  });

  it('hpd_complaints, nyc311, evictions, hpd_bedbugs, hpd_emergency_repairs: published field names', async () => {
    const complaint = await one('hpd_complaints', {
      received_date: '2026-02-01T00:00:00.000', problem_id: '5001', complaint_id: '9001', building_id: '77', borough: 'BRONX', block: '2482', lot: '30',
      type: 'EMERGENCY', major_category: 'HEAT/HOT WATER', minor_category: 'ENTIRE BUILDING', complaint_status: 'OPEN', problem_status: 'OPEN', bbl: '2024820030',
    });
    expect(complaint.outcome).toMatchObject({ kind: 'ok', events: [{ source_record_id: '9001', status: 'open', attributes: { problems: [{ problem_id: 5001, major_category: 'HEAT/HOT WATER' }] } }] });

    const request = await one('nyc311', {
      unique_key: '61234567', created_date: '2026-03-01T10:00:00.000', agency: 'HPD', complaint_type: 'HEAT/HOT WATER', descriptor: 'ENTIRE BUILDING',
      status: 'Open', bbl: '2024820030', council_district: '15', police_precinct: '46',
    });
    expect(request.outcome).toMatchObject({ kind: 'ok', events: [{ source_record_id: '61234567', description: 'HEAT/HOT WATER: ENTIRE BUILDING' }] });
    const old = await one('nyc311', { unique_key: '11', created_date: '2012-03-01T10:00:00.000', agency: 'HPD', complaint_type: 'HEATING', bbl: '2024820030' }, 'y2010_2019');
    expect(old.counters.part).toBe('y2010_2019');

    const eviction = await one('evictions', {
      court_index_number: '306810/22K', docket_number: '120701', eviction_address: '12 MAIN STREET', executed_date: '2024-02-26T00:00:00.000',
      residential_commercial_ind: 'Residential', borough: 'BROOKLYN', bbl: '3048060077',
    });
    expect(eviction.outcome).toMatchObject({ kind: 'ok', events: [{ source_record_id: '306810/22K:120701', occurred_on: '2024-02-26' }] });

    const bedbugs = await one('hpd_bedbugs', {
      building_id: '64708', of_dwelling_units: '40', infested_dwelling_unit_count: '3', eradicated_unit_count: '2', re_infested_dwelling_unit: '1',
      filing_date: '2024-01-05T00:00:00.000', filing_period_start_date: '2022-11-30T00:00:00.000', filling_period_end_date: '2023-11-30T00:00:00.000', bbl: '2031560001',
    });
    expect(bedbugs.outcome).toMatchObject({
      kind: 'ok',
      events: [{ source_record_id: '64708:11/30/2022', attributes: { dwelling_units: 40, reinfested_units: 1, filing_period_end: '2023-11-30' } }],
    });

    const omo = await one('hpd_emergency_repairs', { omoid: '1', omonumber: 'E123', omocreatedate: '2024-01-05T00:00:00.000', omoawardamount: '1500.5', bbl: '2031560001' });
    expect(omo.outcome).toMatchObject({ kind: 'ok', events: [{ event_type: 'emergency_repair_omo', attributes: { amount: 1500.5 } }] });
  });

  it('status words map explicitly; an unseen word is counted for the run summary', async () => {
    const row = (status: string) => ({ litigationid: '1', casetype: 'Heat and Hot Water', caseopendate: '2025-01-02T00:00:00.000', casestatus: status, bbl: '1008960023' });
    const run = parseSodaRows(getSource('hpd_litigations'), [row('OPEN'), row('PENDING'), row('CLOSED'), row('ADJOURNED'), row('ADJOURNED')]);
    const statuses = [];
    for await (const record of run) statuses.push(record.outcome.kind === 'ok' ? record.outcome.events[0].status : record.outcome.kind);
    expect(statuses).toEqual(['open', 'open', 'closed', null, null]);
    expect(run.counters.unmappedWords).toEqual({ 'CaseStatus: ADJOURNED': 2 });

    const safety = (status: string) => ({ violation_number: `V${status}`, violation_issue_date: '2025-01-02T00:00:00.000', violation_status: status, bbl: '1008960023' });
    const safetyRun = parseSodaRows(getSource('dob_safety_violations'), [safety('Active'), safety('Resolved'), safety('Dismissed'), safety('Mystery')]);
    const safetyStatuses = [];
    for await (const record of safetyRun) safetyStatuses.push(record.outcome.kind === 'ok' ? record.outcome.events[0].status : record.outcome.kind);
    expect(safetyStatuses).toEqual(['open', 'resolved', 'dismissed', null]);
    expect(safetyRun.counters.unmappedWords).toEqual({ 'Violation Status: MYSTERY': 1 });
  });
});
