import { NormalizedEvent } from '@bhis/domain';
import { SourceFacts } from './facts';
import { getSource } from './registry';
import { expectBalanced, localFixture, mapResolver, parseFile, ParsedFile, sharedFixture } from './testing/fixtures';

/** One test per source: its fixture file streamed end to end, counts and a few exact values. */

function eventById(file: ParsedFile, id: string): NormalizedEvent {
  const event = file.events.find((candidate) => candidate.source_record_id === id);
  if (!event) throw new Error(`no event ${id}`);
  return event;
}

function factsOf<K extends SourceFacts['kind']>(file: ParsedFile, kind: K): Extract<SourceFacts, { kind: K }>[] {
  return file.facts.filter((item): item is Extract<SourceFacts, { kind: K }> => item.kind === kind);
}

describe('source fixtures', () => {
  it('pluto: building facts of every lot', async () => {
    const file = await parseFile(getSource('pluto'), sharedFixture('pluto_latest.csv'));
    expectBalanced(file.counters);
    expect(file.counters).toMatchObject({ read: 5, ok: 5, quarantined: 0, facts: 5 });
    const [first] = factsOf(file, 'pluto_building');
    expect(first).toEqual({
      kind: 'pluto_building',
      bbl: '2054800111',
      borough: 2,
      block: 5480,
      lot: 111,
      address: '761 CLARENCE AVENUE',
      house_number: '761',
      street_name: 'CLARENCE AVENUE',
      zipcode: '10465',
      residential_units: 1,
      total_units: 1,
      year_built: 1950,
      building_class: 'A5',
      owner_name: 'RODRIGUEZ, JOSE R',
      latitude: 40.830953,
      longitude: -73.8165508,
      num_buildings: 1,
      num_floors: 2,
    });
  });

  it('hpd_jurisdiction: legal units and BIN, placeholder rows quarantined', async () => {
    const file = await parseFile(getSource('hpd_jurisdiction'), sharedFixture('hpd_jurisdiction.csv'));
    expectBalanced(file.counters);
    expect(file.counters).toMatchObject({ read: 60, ok: 58, quarantined: 2, quarantinedByReason: { no_bbl: 2 } });
    expect(file.counters.castFailures['Block']).toBe(2);
    const building = factsOf(file, 'hpd_building').find((item) => item.hpd_building_id === 510711);
    expect(building).toMatchObject({ bbl: '4108650003', bin: 4232261, legal_units: 1, stories: 2, record_status: 'Active' });
  });

  it('hpd_registrations: BBL built from boro/block/lot, facts and a registration_filed event', async () => {
    const file = await parseFile(getSource('hpd_registrations'), sharedFixture('hpd_registrations.csv'));
    expectBalanced(file.counters);
    expect(file.counters).toMatchObject({ read: 60, ok: 60, facts: 60 });
    expect(factsOf(file, 'registration')[0]).toEqual({
      kind: 'registration',
      bbl: '3061760029',
      bin: 3157552,
      registration_id: 336228,
      hpd_building_id: 168059,
      last_registration_date: '2017-08-07',
      registration_end_date: '2018-09-01',
    });
    expect(eventById(file, '336228')).toMatchObject({ event_type: 'registration_filed', category: 'registration', status: 'filed', occurred_on: '2017-08-07' });
  });

  it('hpd_registration_contacts: owner names by registration id', async () => {
    const file = await parseFile(getSource('hpd_registration_contacts'), sharedFixture('hpd_contacts.csv'));
    expectBalanced(file.counters);
    expect(file.counters).toMatchObject({ read: 60, ok: 60, facts: 60, events: 0 });
    const contacts = factsOf(file, 'registration_contact');
    expect(contacts[0]).toMatchObject({ registration_id: 331931, contact_type: 'CorporateOwner', name: 'ZORIANO ASSOCIATES INC' });
    expect(contacts[1]).toMatchObject({ contact_type: 'Agent', person_name: 'GEORGE RIGAS', name: 'ZORIANO ASSOCIATES INC' });
  });

  it('hpd_violations: class severity, order-number categories, status', async () => {
    const file = await parseFile(getSource('hpd_violations'), sharedFixture('hpd_violations.csv'));
    expectBalanced(file.counters);
    expect(file.counters).toMatchObject({ read: 60, ok: 60, quarantined: 0, events: 60 });
    expect(eventById(file, '10000000')).toMatchObject({
      bbl: '3047040044',
      event_type: 'hpd_violation',
      category: 'security',
      severity: 'high',
      status: 'closed',
      occurred_on: '2013-10-09',
      closed_on: '2014-02-10',
    });
    const mold = file.events.find((event) => event.attributes['order_number'] === '550');
    expect(mold).toMatchObject({ category: 'mold', severity: 'high' });
    // "REPLACE WITH NEW THE MISSING HOT WATER KNOB": order 806, not a leak
    const knob = file.events.find((event) => event.attributes['order_number'] === '806');
    expect(knob).toMatchObject({ category: 'habitability', severity: 'medium' });
    expect(file.events.filter((event) => event.category === 'water_damage')).toHaveLength(0);
    const hotWater = file.events.find((event) => event.attributes['order_number'] === '670');
    expect(hotWater).toMatchObject({ category: 'heat_hot_water', severity: 'critical' });
  });

  it('hpd_complaints: one event per problem keyed by complaint, 311 key kept', async () => {
    const file = await parseFile(getSource('hpd_complaints'), sharedFixture('hpd_complaints_and_problems.csv'));
    expectBalanced(file.counters);
    expect(file.counters).toMatchObject({ read: 10, ok: 10, events: 10 });
    const sameComplaint = file.events.filter((event) => event.source_record_id === '8616780');
    expect(sameComplaint).toHaveLength(3);
    const first = eventById(file, '8591909');
    expect(first).toMatchObject({ bbl: '1021800018', category: 'electrical', severity: 'high', status: 'closed', occurred_on: '2017-08-01', closed_on: '2017-08-08' });
    expect(first.attributes['unique_key_311']).toBe('36841684');
    expect(first.attributes['problems']).toEqual([expect.objectContaining({ problem_id: 17704039, major_category: 'ELECTRIC', minor_category: 'POWER OUTAGE' })]);
    expect(file.events.find((event) => event.attributes['problems'] && JSON.stringify(event.attributes['problems']).includes('PESTS'))).toMatchObject({ category: 'pests' });
  });

  it('hpd_litigations: case type and status', async () => {
    const file = await parseFile(getSource('hpd_litigations'), sharedFixture('hpd_litigations.csv'));
    expectBalanced(file.counters);
    expect(file.counters).toMatchObject({ read: 10, ok: 10 });
    expect(eventById(file, '413007')).toMatchObject({ bbl: '1008960023', category: 'litigation', severity: 'medium', status: 'closed', occurred_on: '2023-04-20' });
    expect(eventById(file, '359008')).toMatchObject({ severity: 'high' });
  });

  it('hpd_vacate_orders: fire damage is a catastrophe category, no rescind date = active', async () => {
    const file = await parseFile(getSource('hpd_vacate_orders'), sharedFixture('hpd_vacateorders.csv'));
    expectBalanced(file.counters);
    expect(file.counters).toMatchObject({ read: 60, ok: 59, quarantined: 1, quarantinedByReason: { no_bbl: 1 } });
    expect(eventById(file, '100282')).toMatchObject({ category: 'illegal_occupancy', severity: 'high', status: 'active', closed_on: null });
    expect(eventById(file, '142395')).toMatchObject({
      bbl: '2033240104',
      category: 'fire',
      status: 'rescinded',
      occurred_on: '2018-01-10',
      closed_on: '2018-09-12',
    });
  });

  it('hpd_aep: status and discharge date', async () => {
    const file = await parseFile(getSource('hpd_aep'), sharedFixture('hpd_aep.csv'));
    expectBalanced(file.counters);
    expect(file.counters).toMatchObject({ read: 60, ok: 59, quarantined: 1 });
    expect(eventById(file, '107767:Aep Round 16')).toMatchObject({ bbl: '2031560155', status: 'active', occurred_on: '2023-01-31', category: 'enforcement_program' });
    const discharged = file.events.filter((event) => event.status === 'discharged');
    expect(discharged.length).toBe(50);
    expect(discharged.every((event) => event.closed_on !== null)).toBe(true);
  });

  it('hpd_underlying_conditions: impossible years are counted, not guessed', async () => {
    const file = await parseFile(getSource('hpd_underlying_conditions'), sharedFixture('hpd_underlying_conditions.csv'));
    expectBalanced(file.counters);
    expect(file.counters).toMatchObject({ read: 5, ok: 5, castFailures: { ORDER_ISSUE_DATE: 5 } });
    expect(file.events[0]).toMatchObject({ bbl: '2046280001', event_type: 'ucp_order', status: 'discharged', occurred_on: null });
  });

  it('hpd_emergency_repairs: OMO part', async () => {
    const file = await parseFile(getSource('hpd_emergency_repairs'), sharedFixture('hpd_omo_charges.csv'));
    expectBalanced(file.counters);
    expect(file.counters).toMatchObject({ part: 'omo', read: 5, ok: 5 });
    expect(eventById(file, '4988169')).toMatchObject({ event_type: 'emergency_repair_omo', bbl: '4100080027', occurred_on: '2020-08-07', scoring_excluded: false });
    expect(eventById(file, '5268709').attributes['amount']).toBe(1455.52);
  });

  it('hpd_emergency_repairs: HWO part (dates with time)', async () => {
    const file = await parseFile(getSource('hpd_emergency_repairs'), sharedFixture('hpd_hwo_charges.csv'));
    expectBalanced(file.counters);
    expect(file.counters).toMatchObject({ part: 'hwo', read: 5, ok: 5 });
    expect(eventById(file, '2103028')).toMatchObject({ event_type: 'emergency_repair_hwo', occurred_on: '2009-07-01', category: 'emergency_repair' });
    expect(eventById(file, '2103028').attributes['amount']).toBe(243.07);
  });

  it('hpd_bedbugs: built fixture', async () => {
    const file = await parseFile(getSource('hpd_bedbugs'), localFixture('hpd_bedbugs.csv'), { resolver: mapResolver({ 3071234: '3027450001' }) });
    expectBalanced(file.counters);
    expect(file.counters).toMatchObject({ read: 3, ok: 2, quarantined: 1, quarantinedByReason: { invalid_date: 1 } });
    expect(file.events[0]).toMatchObject({ bbl: '2031560001', category: 'pests', severity: 'medium', occurred_on: '2024-01-05' });
    expect(file.events[1]).toMatchObject({ bbl: '3027450001', severity: 'info' });
  });

  it('dob_violations: padded block/lot, YYYYMMDD, status from the category', async () => {
    const file = await parseFile(getSource('dob_violations'), sharedFixture('dob_violations.csv'), { resolver: mapResolver() });
    expectBalanced(file.counters);
    expect(file.counters).toMatchObject({ read: 60, ok: 59, notRelevant: 1 });
    expect(eventById(file, '544483')).toMatchObject({
      bbl: '1012010063',
      category: 'boiler',
      status: 'dismissed',
      occurred_on: '1998-05-04',
      closed_on: '2004-07-16',
    });
    expect(eventById(file, '1348475')).toMatchObject({ bbl: '1009940054', category: 'elevator', status: 'resolved' });
  });

  it('dob_ecb_violations: severity, status and penalties', async () => {
    const file = await parseFile(getSource('dob_ecb_violations'), sharedFixture('ecb_violations.csv'));
    expectBalanced(file.counters);
    expect(file.counters).toMatchObject({ read: 5, ok: 5 });
    expect(eventById(file, '38151068L')).toMatchObject({ bbl: '1000330011', category: 'elevator', severity: 'medium', status: 'resolved', occurred_on: '2005-02-28' });
    expect(eventById(file, '34830294Z').attributes).toMatchObject({ penalty_imposed: 4000, amount_paid: 937.89, balance_due: 0 });
    expect(eventById(file, '34830294Z').severity).toBe('low');
  });

  it('dob_safety_violations: device type and status', async () => {
    const file = await parseFile(getSource('dob_safety_violations'), sharedFixture('dob_safety_violations.csv'));
    expectBalanced(file.counters);
    expect(file.counters).toMatchObject({ read: 9, ok: 9 });
    expect(eventById(file, '010606LL629112840')).toMatchObject({ bbl: '3050910007', category: 'boiler', status: 'open', occurred_on: '2006-01-06' });
    expect(eventById(file, 'VIO-FTC-VT-CAT1-202112-0004936')).toMatchObject({ category: 'elevator' });
  });

  it('dob_complaints: BIN resolved through the resolver, unknown BINs out of scope', async () => {
    const resolver = mapResolver({ 4298330: '4012340001', 1004077: '1004890012' });
    const file = await parseFile(getSource('dob_complaints'), sharedFixture('dob_complaints.csv'), { resolver });
    expectBalanced(file.counters);
    expect(file.counters).toMatchObject({ read: 60, ok: 4, notRelevant: 56, notRelevantByReason: { bin_not_in_universe: 56 } });
    expect(eventById(file, '4483428')).toMatchObject({ bbl: '4012340001', category: 'construction', severity: 'medium', status: 'closed', occurred_on: '2011-06-08', closed_on: '2013-04-25' });
    expect(eventById(file, '1347475')).toMatchObject({ bbl: '1004890012', category: 'construction', status: 'closed' });
  });

  it('dob_job_filings: BBL from borough/block/lot, money casts', async () => {
    const file = await parseFile(getSource('dob_job_filings'), sharedFixture('dobjobs.csv'));
    expectBalanced(file.counters);
    expect(file.counters).toMatchObject({ read: 60, ok: 60 });
    expect(eventById(file, '440673852:01')).toMatchObject({ bbl: '4132280009', category: 'permit', status: 'closed', occurred_on: '2021-05-03', closed_on: '2022-02-23' });
    expect(eventById(file, '440673852:01').attributes['initial_cost']).toBe(37300);
  });

  it('dob_now_job_filings: filing status and dates with time', async () => {
    const file = await parseFile(getSource('dob_now_job_filings'), sharedFixture('dob_now_jobs.csv'));
    expectBalanced(file.counters);
    expect(file.counters).toMatchObject({ read: 60, ok: 60 });
    expect(eventById(file, 'B00472129-P1')).toMatchObject({ bbl: '3011727502', category: 'permit', status: 'filed', occurred_on: '2022-12-15' });
  });

  it('dob_facades: real rows in the upper-case export layout, penalties and comments kept', async () => {
    const file = await parseFile(getSource('dob_facades'), localFixture('dob_facades.csv'));
    expectBalanced(file.counters);
    expect(file.counters).toMatchObject({ variant: 'current', read: 9, ok: 9 });
    expect(eventById(file, 'TR6-706609-7C-I1')).toMatchObject({
      bbl: '1018910026',
      category: 'facade',
      severity: 'critical',
      occurred_on: '2015-02-20',
      attributes: { filing_status: 'UNSAFE', prior_status: 'UNSAFE', late_filing_amt: 10000, failure_to_file_amt: 1000, failure_to_collect_amt: 0, cycle: '7', sequence_no: 1, bin: 1057216 },
    });
    expect(eventById(file, 'TR6-706604-7B-I1').attributes).toMatchObject({ late_filing_amt: 2400, failure_to_file_amt: 0 });
    expect(eventById(file, 'TR6-706602-7B-I1').attributes['comments']).toBe('INTIAL FILING 08/20/2012 AND REJECTED 03/11/2013. RESUBMITTED 04/24/2013 AND ACCEPTED. FILED ON TIME');
    expect(eventById(file, 'TR6-706599-7B-I1')).toMatchObject({ severity: 'medium', occurred_on: '2011-12-12', attributes: { prior_cycle_filing_date: '2006-03-27' } });
  });

  it('dob_vacate_orders: borough names, fill characters removed', async () => {
    const file = await parseFile(getSource('dob_vacate_orders'), sharedFixture('dob_vacate_orders.csv'));
    expectBalanced(file.counters);
    expect(file.counters).toMatchObject({ read: 60, ok: 60 });
    expect(file.events[0]).toMatchObject({
      bbl: '4029700038',
      category: 'illegal_occupancy',
      severity: 'high',
      occurred_on: '2012-01-03',
      description: 'PARTIAL VACATE ORDER ISSUED (ILLEGAL CONVERSION)',
    });
    expect(file.events.filter((event) => event.severity === 'critical')).toHaveLength(9);
  });

  it('nyc311: housing requests only, the rest not relevant', async () => {
    const file = await parseFile(getSource('nyc311'), sharedFixture('nyc311_service_requests.csv'));
    expectBalanced(file.counters);
    expect(file.counters).toMatchObject({ read: 9, ok: 3, quarantined: 0, notRelevant: 6, notRelevantByReason: { not_housing_related: 6 } });
    expect(eventById(file, '40039013')).toMatchObject({
      bbl: '2042920024',
      category: 'plumbing',
      status: 'closed',
      occurred_on: '2018-08-17',
      closed_on: '2018-08-20',
    });
    expect(eventById(file, '40039013').attributes['unique_key_311']).toBe('40039013');
  });

  it('fdny_vacates: built fixture, in force while the disposition is empty', async () => {
    const file = await parseFile(getSource('fdny_vacates'), localFixture('fdny_vacates.csv'), { resolver: mapResolver({ 1005678: '1004370020' }) });
    expectBalanced(file.counters);
    expect(file.counters).toMatchObject({ read: 3, ok: 2, quarantined: 1, quarantinedByReason: { missing_record_key: 1 } });
    expect(file.events[0]).toMatchObject({ bbl: '2040270012', event_type: 'fdny_vacate', category: 'fire', status: 'active', occurred_on: '2024-03-02' });
    expect(file.events[1]).toMatchObject({ bbl: '1004370020', status: 'rescinded', closed_on: '2024-01-09', description: 'FDNY vacate order: Rescinded' });
    expect(file.counters.unmappedWords).toEqual({});
  });

  it('dof_tax_liens: MM/YYYY month, padded "Block " header', async () => {
    const file = await parseFile(getSource('dof_tax_liens'), sharedFixture('dof_tax_lien_sale_list.csv'));
    expectBalanced(file.counters);
    expect(file.counters).toMatchObject({ read: 60, ok: 60 });
    expect(file.events[0]).toMatchObject({ bbl: '1000160003', category: 'financial', severity: 'low', occurred_on: '2019-04-01' });
  });

  it('dohmh_rodents: blank BBL falls back to BORO_CODE/BLOCK/LOT, AM/PM times', async () => {
    const file = await parseFile(getSource('dohmh_rodents'), sharedFixture('dohmh_rodent_inspections.csv'));
    expectBalanced(file.counters);
    expect(file.counters).toMatchObject({ read: 5, ok: 5 });
    expect(eventById(file, 'PC8122655:INITIAL:2023-06-07')).toMatchObject({ bbl: '1005290009', severity: 'info', occurred_on: '2023-06-07' });
    expect(eventById(file, 'PC7504205:INITIAL:2010-09-16')).toMatchObject({ bbl: '5000620113', category: 'sanitation', severity: 'medium', occurred_on: '2010-09-16' });
  });

  it('evictions: executed evictions, commercial out of scope, missing BBL quarantined', async () => {
    const file = await parseFile(getSource('evictions'), sharedFixture('executed_evictions.csv'));
    expectBalanced(file.counters);
    expect(file.counters).toMatchObject({ part: 'main', read: 10, ok: 8, quarantined: 1, notRelevant: 1 });
    expect(eventById(file, '306810/22K:120701')).toMatchObject({ bbl: '3048060077', category: 'eviction', occurred_on: '2024-02-26' });
  });

  it('evictions: the older compiled marshal file (lower-case header)', async () => {
    const file = await parseFile(getSource('evictions'), sharedFixture('marshal_evictions_all.csv'));
    expectBalanced(file.counters);
    expect(file.counters).toMatchObject({ part: 'marshal_compiled', read: 59, ok: 55, quarantined: 2, notRelevant: 2 });
    expect(eventById(file, '98/17:69483')).toMatchObject({ bbl: '2031770041', occurred_on: '2017-05-04', category: 'eviction' });
  });
});
