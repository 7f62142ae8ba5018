import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { NormalizedEvent } from '@bhis/domain';
import { HeaderMismatchError } from './header';
import { parseSource } from './parse';
import { getSource } from './registry';
import { expectBalanced, localFixture, mapResolver, parseFile, ParsedFile, sharedFixture, sodaMetadataFixture } from './testing/fixtures';

/** The current (2025-2026) exports and the older layouts still in circulation, from real rows. */

function okEvents(file: ParsedFile): NormalizedEvent[] {
  return file.events;
}

/**
 * The rows of a CSV rewritten in another layout: `header` in order, each column read from the
 * source column `from[name]` (or the same name); blank when the source has no such column.
 */
export function relayout(text: string, header: readonly string[], from: Record<string, string> = {}): string {
  const rows = parse(text, { columns: true, bom: true, relax_column_count: true }) as Record<string, string>[];
  return stringify([header as string[], ...rows.map((row) => header.map((name) => row[from[name] ?? name] ?? ''))]);
}

async function parseText(source: string, text: string): Promise<ParsedFile> {
  const run = parseSource(getSource(source), Readable.from([text]), { resolver: mapResolver() });
  const records = [];
  for await (const record of run) records.push(record);
  const events = records.flatMap((record) => (record.outcome.kind === 'ok' ? record.outcome.events : []));
  const facts = records.flatMap((record) => (record.outcome.kind === 'ok' ? record.outcome.facts : []));
  return { records, counters: run.counters, events, facts };
}

describe('current export formats', () => {
  const current: [string, string, number][] = [
    ['pluto', 'pluto.csv', 3],
    ['hpd_jurisdiction', 'hpd_jurisdiction.csv', 67],
    ['hpd_litigations', 'hpd_litigations.csv', 7],
    ['evictions', 'evictions.csv', 7],
    ['dob_job_filings', 'dob_job_filings.csv', 67],
    ['dob_now_job_filings', 'dob_now_job_filings.csv', 67],
  ];

  it.each(current)('%s: every real row of the current export loads or is set aside with a reason', async (source, name, rows) => {
    const file = await parseFile(getSource(source), localFixture(`current/${name}`), { resolver: mapResolver() });
    expectBalanced(file.counters);
    expect(file.counters).toMatchObject({ read: rows, variant: 'current' });
    for (const record of file.records) {
      if (record.outcome.kind === 'quarantined') expect(record.outcome.reason).toBeTruthy();
      if (record.outcome.kind === 'not_relevant') expect(record.outcome.reason).toBeTruthy();
    }
    expect(file.counters.ok).toBeGreaterThan(rows / 2);
  });

  it('pluto: the 101-column release maps to the same facts as the 108-column one', async () => {
    const older = await parseFile(getSource('pluto'), localFixture('older/pluto_101.csv'));
    expect(older.counters).toMatchObject({ read: 5, ok: 5, variant: 'variant 1' });
    const current = await parseFile(getSource('pluto'), localFixture('current/pluto.csv'));
    const header101 = readFileSync(localFixture('older/pluto_101.csv'), 'utf8').split('\n')[0].split(',');
    const asOlder = await parseText('pluto', relayout(readFileSync(localFixture('current/pluto.csv'), 'utf8'), header101));
    expect(asOlder.counters.variant).toBe('variant 1');
    expect(asOlder.facts).toEqual(current.facts);
    expect(current.facts).toHaveLength(3);
  });

  it.each([
    ['older/dob_now_jobs_85.csv', 'variant 1'],
    ['older/dob_now_jobs_83.csv', 'variant 2'],
    ['older/dob_now_jobs_82.csv', 'variant 3'],
  ])('dob_now_job_filings: the older layout %s loads (%s)', async (name, variant) => {
    const file = await parseFile(getSource('dob_now_job_filings'), localFixture(name), { resolver: mapResolver() });
    expectBalanced(file.counters);
    expect(file.counters.variant).toBe(variant);
    expect(file.counters.quarantinedByReason['mapper_error']).toBeUndefined();
    expect(file.counters.ok).toBeGreaterThan(0);
  });

  it('dob_now_job_filings: the 82-column Bin and BIN are two columns, read as spelled', async () => {
    const file = await parseFile(getSource('dob_now_job_filings'), localFixture('older/dob_now_jobs_82.csv'), { resolver: mapResolver() });
    const withBin = file.events.find((event) => event.attributes['bin'] !== undefined);
    expect(withBin).toBeDefined();
    expect(file.counters.castFailures['Bin']).toBeUndefined();
  });

  it('dob_job_filings: the 2026 BBL column holds a BIN; the BBL comes from borough/block/lot', async () => {
    const file = await parseFile(getSource('dob_job_filings'), localFixture('current/dob_job_filings.csv'));
    const text = readFileSync(localFixture('current/dob_job_filings.csv'), 'utf8');
    expect(text.split('\n')[0].split(',').slice(0, 2)).toEqual(['JOB_S1_NO', 'Job #']);
    for (const event of okEvents(file)) {
      expect(event.bbl).toMatch(/^[1-5]\d{9}$/);
      if (event.attributes['gis_bin'] !== undefined) expect(String(event.attributes['gis_bin'])).toMatch(/^[1-5]\d{6}$/);
    }
    expect(okEvents(file).some((event) => event.attributes['gis_bin'] !== undefined)).toBe(true);
    const older = await parseFile(getSource('dob_job_filings'), localFixture('older/dobjobs_96.csv'));
    expect(older.counters.variant).toBe('variant 1');
    expect(older.counters.ok).toBeGreaterThan(0);
  });

  it('nyc311: the 44-column export (renamed Problem columns, BBL moved) maps like the 41-column one', async () => {
    const text = readFileSync(sharedFixture('nyc311_service_requests.csv'), 'utf8');
    const header = getSource('nyc311').parts[0].header;
    const current = relayout(text, header, { 'Problem (formerly Complaint Type)': 'Complaint Type', 'Problem Detail (formerly Descriptor)': 'Descriptor' });
    expect(current.split('\n')[0].split(',')).toHaveLength(44);
    const older = await parseFile(getSource('nyc311'), sharedFixture('nyc311_service_requests.csv'));
    const now = await parseText('nyc311', current);
    expect(older.counters.variant).toBe('variant 1');
    expect(now.counters.variant).toBe('current');
    expect(now.events).toEqual(older.events);
    expect(now.counters).toMatchObject({ read: older.counters.read, ok: older.counters.ok, notRelevant: older.counters.notRelevant });
    expect(older.events.length).toBeGreaterThan(0);
  });

  it('nyc311: the 2010-2019 data set is a second part read with the same headers', async () => {
    const source = getSource('nyc311');
    expect(source.parts.map((part) => [part.part, part.datasetId])).toEqual([
      ['main', 'erm2-nwe9'],
      ['y2010_2019', '76ig-c548'],
    ]);
    const file = await parseFile(source, sharedFixture('nyc311_service_requests.csv'), { part: 'y2010_2019' });
    expect(file.counters.part).toBe('y2010_2019');
    expect(file.events.length).toBeGreaterThan(0);
  });

  it('dohmh_rodents: every layout derives the same key for the same inspection, from columns the 2026 layout has', async () => {
    const text = readFileSync(sharedFixture('dohmh_rodent_inspections.csv'), 'utf8');
    const part = getSource('dohmh_rodents').parts[0];
    const older = await parseFile(getSource('dohmh_rodents'), sharedFixture('dohmh_rodent_inspections.csv'));
    const current = await parseText('dohmh_rodents', relayout(text, part.header));
    const withProgress = await parseText('dohmh_rodents', relayout(text, part.headerVariants[0]));
    expect(part.header).not.toContain('JOB_PROGRESS');
    expect(older.counters).toMatchObject({ variant: 'variant 2', read: 5, ok: 5 });
    expect(current.counters).toMatchObject({ variant: 'current', read: 5, ok: 5, quarantinedByReason: {} });
    expect(withProgress.counters).toMatchObject({ variant: 'variant 1', read: 5, ok: 5 });
    expect(current.events.map((event) => event.source_record_id)).toEqual(older.events.map((event) => event.source_record_id));
    expect(withProgress.events.map((event) => event.source_record_id)).toEqual(older.events.map((event) => event.source_record_id));
    expect(new Set(current.events.map((event) => event.source_record_id)).size).toBe(5);
    expect(older.events[0].source_record_id).toBe('PC8122655:INITIAL:2023-06-07');
    expect(older.events[0].attributes).toMatchObject({ job_ticket_id: '13661515', job_progress: 1 });
  });

  it('dohmh_rodents: letter type and observations are kept, the full result words classified', async () => {
    // the words of the 2026 field list's vocabulary (docs/sources.md, rodent inspections)
    const header = getSource('dohmh_rodents').parts[0].header;
    const row: Record<string, string> = { INSPECTION_TYPE: 'Initial', JOB_ID: 'PC8122655', BBL: '1005290009', INSPECTION_DATE: '09/02/2026 10:15:00 AM', RESULT: 'Failed for Rat Activity and Other Reason', LETTER_TYPE: 'COTA', OBSERVATIONS: 'Burrows' };
    const file = await parseText('dohmh_rodents', stringify([header as string[], header.map((name) => row[name] ?? '')]));
    expect(file.events[0]).toMatchObject({
      source_record_id: 'PC8122655:INITIAL:2026-09-02',
      occurred_on: '2026-09-02',
      category: 'pests',
      severity: 'high',
      attributes: { letter_type: 'COTA', observations: 'Burrows' },
    });
  });

  it('hpd_bedbugs: the display-name export (two-space Re-infested, sic Filling) maps like the field names', async () => {
    const text = readFileSync(localFixture('hpd_bedbugs.csv'), 'utf8');
    const resolver = mapResolver({ 3071234: '3027450001' });
    const byField = await parseFile(getSource('hpd_bedbugs'), localFixture('hpd_bedbugs.csv'), { resolver });
    const displayNames = Object.entries({
      'Building ID': 'building_id', 'Registration ID': 'registration_id', Borough: 'borough', 'House Number': 'house_number', 'Street Name': 'street_name',
      Postcode: 'postcode', '# of Dwelling Units': 'of_dwelling_units', 'Infested Dwelling Unit Count': 'infested_dwelling_unit_count',
      'Eradicated Unit Count': 'eradicated_unit_count', 'Re-infested  Dwelling Unit Count': 're_infested_dwelling_unit', 'Filing Date': 'filing_date',
      'Filing Period Start Date': 'filing_period_start_date', 'Filling Period End Date': 'filling_period_end_date', Latitude: 'latitude', Longitude: 'longitude',
      BIN: 'bin', BBL: 'bbl', 'Community Board': 'x', 'Council District': 'x', '2010 Census Tract': 'x', NTA: 'x',
    });
    const display = relayout(text, displayNames.map(([name]) => name), Object.fromEntries(displayNames));
    const run = parseSource(getSource('hpd_bedbugs'), Readable.from([display]), { resolver });
    const events = [];
    for await (const record of run) if (record.outcome.kind === 'ok') events.push(...record.outcome.events);
    expect(run.counters.variant).toBe('variant 2');
    expect(events).toEqual(byField.events);
    expect(events.some((event) => event.attributes['reinfested_units'] !== undefined)).toBe(true);
  });

  it('dob_facades and fdny_vacates: SODA field names and their display forms', async () => {
    const facades = readFileSync(localFixture('dob_facades.csv'), 'utf8');
    const [first, ...rest] = facades.split('\n');
    const upper = [first.split(',').map((name) => name.toUpperCase().replace(/_/g, ' ')).join(','), ...rest].join('\n');
    const a = await parseFile(getSource('dob_facades'), localFixture('dob_facades.csv'), { resolver: mapResolver() });
    const b = await parseText('dob_facades', upper);
    expect(b.events).toEqual(a.events);
    expect(a.events.length).toBeGreaterThan(0);

    const list = ['DESCRIPTION', 'DATE_OF_VAC_ORDER', 'BLDG_TX_BORO', 'AKA_ADDRESS', 'BLDG_COMMUNITY_DIST', 'COUNCIL_DISTRICT', 'BIN', 'BBL', 'LST_COMPL_INSP_DATE', 'STATUS_CHANGE_DATE', 'OCPCY_DESC'];
    const vacates = relayout(readFileSync(localFixture('fdny_vacates.csv'), 'utf8'), list, { DESCRIPTION: 'description', DATE_OF_VAC_ORDER: 'vac_date', BLDG_TX_BORO: 'borough', BIN: 'bin', BBL: 'bbl', STATUS_CHANGE_DATE: 'status_change_date' });
    const file = await parseText('fdny_vacates', vacates);
    expect(file.counters.variant).toBe('variant 1');
    expect(file.counters.ok).toBeGreaterThan(0);
  });

  it.each([
    ['hpd_violations', 'hpd_violations.csv', ['RentImpairing'], {}],
    ['dob_safety_violations', 'dob_safety_violations.csv', ['Latitude', 'Longitude', 'Community Board', 'Council District', 'BBL', 'Census Tract (2020)', 'Neighborhood Tabulation Area (NTA) (2020)'], { Postcode: 'Zip' }],
  ] as const)('%s: the older layout without the columns added later loads the same records', async (source, name, drop, rename) => {
    const text = readFileSync(sharedFixture(name), 'utf8');
    const header = getSource(source).parts[0].header.filter((column) => !(drop as readonly string[]).includes(column));
    const renamed = header.map((column) => (rename as Record<string, string>)[column] ?? column);
    const older = await parseText(source, relayout(text, renamed, Object.fromEntries(header.map((column, i) => [renamed[i], column]))));
    const current = await parseFile(getSource(source), sharedFixture(name), { resolver: mapResolver() });
    expect(older.counters.variant).toBe('variant 1');
    expect(older.records.map((record) => record.outcome.kind === 'ok' ? record.outcome.events.map((e) => e.source_record_id) : record.outcome.kind))
      .toEqual(current.records.map((record) => record.outcome.kind === 'ok' ? record.outcome.events.map((e) => e.source_record_id) : record.outcome.kind));
  });

  it('keeps the columns scoring and filters use, typed', async () => {
    const violations = await parseFile(getSource('hpd_violations'), sharedFixture('hpd_violations.csv'));
    const invalid = violations.events.find((event) => event.attributes['current_status'] === 'INVALID CERTIFICATION');
    expect(invalid?.attributes).toMatchObject({ false_certification: true, certified_late: false, nov_type: 'Original' });
    expect(typeof invalid?.attributes['current_status_id']).toBe('number');
    expect(violations.events.some((event) => typeof event.attributes['rent_impairing'] === 'boolean')).toBe(true);
    expect(violations.events.some((event) => /^\d{4}-\d{2}-\d{2}$/.test(String(event.attributes['original_certify_by_date'])))).toBe(true);

    const omo = await parseFile(getSource('hpd_emergency_repairs'), sharedFixture('hpd_omo_charges.csv'));
    expect(new Set(omo.events.map((event) => event.attributes['service_charge']))).toEqual(new Set([true, false]));

    // the 2025-26 field list: four exterior-wall columns after the 36 of the view metadata
    const facades = readFileSync(localFixture('dob_facades.csv'), 'utf8').replace(/\r/g, '').split('\n').filter(Boolean);
    const walls = ['EXTERIOR_WALL_TYPE_S_', 'EXTERIOR_WALL_TYPE_OTHER_DESCRIPTION', 'EXTERIOR_WALL_MATERIAL_S_', 'EXTERIOR_WALL_MATERIAL_OTHER_DESCRIPTION'];
    const with40 = [`${facades[0]},${walls.join(',')}`, ...facades.slice(1).map((line) => `${line},,,,`)].join('\n');
    const file = await parseText('dob_facades', `${with40}\n`);
    expect(file.counters.variant).toBe('variant 1');
    expect(file.events[0].attributes).toMatchObject({ sequence_no: 1, prior_status: 'SWARMP', late_filing_amt: 0 });
  });

  it('through the metadata: a renamed display name loads; a declared header is read by its display names', async () => {
    const text = readFileSync(localFixture('current/hpd_litigations.csv'), 'utf8');
    // the published view metadata (test-fixtures/soda-metadata), its CaseType column renamed
    const published = sodaMetadataFixture('59kj-x8nc').columns;
    const fieldNames = new Map(published.map((column) => [column.name === 'CaseType' ? 'Case Type' : column.name, column.fieldName]));
    const renamed = text.replace(/^LitigationID,(.*?)CaseType,/, 'LitigationID,$1Case Type,');
    const parse = async (input: string, names: Map<string, string>) => {
      const run = parseSource(getSource('hpd_litigations'), Readable.from([input]), { fieldNames: names });
      const events = [];
      for await (const record of run) if (record.outcome.kind === 'ok') events.push(...record.outcome.events);
      return { run, events };
    };
    const viaMetadata = await parse(renamed, fieldNames);
    const declared = await parseFile(getSource('hpd_litigations'), localFixture('current/hpd_litigations.csv'));
    expect(viaMetadata.run.counters.variant).toBe('metadata');
    expect(viaMetadata.events).toEqual(declared.events);
    await expect(parse(renamed, new Map())).rejects.toBeInstanceOf(HeaderMismatchError);

    // field names never decide what a display-named column is: swapped field names change nothing
    const swapped = new Map(published.map((column) => [column.name, column.fieldName]));
    swapped.set('CaseType', 'casestatus');
    swapped.set('CaseStatus', 'casetype');
    expect((await parse(text, swapped)).events).toEqual(declared.events);
  });

  it('an unknown layout fails naming the missing and unexpected columns', async () => {
    const header = [...getSource('dohmh_rodents').parts[0].header.filter((name) => name !== 'LETTER_TYPE'), 'LETTER_KIND'];
    const run = parseSource(getSource('dohmh_rodents'), Readable.from([`${header.join(',')}\n`]));
    const failure = (async () => {
      for await (const _ of run) void _;
    })();
    await expect(failure).rejects.toBeInstanceOf(HeaderMismatchError);
    await expect(failure).rejects.toThrow(/missing columns \[LETTER_TYPE\]; unexpected columns \[LETTER_KIND\]/);
  });
});
