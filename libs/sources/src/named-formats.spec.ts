import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { HeaderMismatchError } from './header';
import { parseSource } from './parse';
import { getSource } from './registry';
import type { SourcePart } from './definition';
import { csvToSodaRows, expectBalanced, localFixture, mapResolver, ParsedFile, parseSoda, sharedFixture, sodaMetadataFixture } from './testing/fixtures';

/** The columns the data set's view metadata publishes (test-fixtures/soda-metadata). */
const columnsOf = (part: SourcePart) => sodaMetadataFixture(part.datasetId ?? '').columns;

/**
 * The formats and value words the city publishes now (docs/sources.md), on real rows: the shared
 * fixtures with a column set to a word of the published vocabulary, never a made-up layout.
 */

type Row = Record<string, string>;

function rowsOf(file: string): Row[] {
  return parse(readFileSync(file, 'utf8'), { columns: true, bom: true, relax_column_count: true }) as Row[];
}

function csvOf(rows: Row[]): string {
  const header = Object.keys(rows[0]);
  return stringify([header, ...rows.map((row) => header.map((name) => row[name] ?? ''))]);
}

async function parseText(source: string, text: string, resolver = mapResolver()): Promise<ParsedFile> {
  const run = parseSource(getSource(source), Readable.from([text]), { resolver });
  const records = [];
  for await (const record of run) records.push(record);
  const events = records.flatMap((record) => (record.outcome.kind === 'ok' ? record.outcome.events : []));
  return { records, counters: run.counters, events, facts: [] };
}

/** Each real row in turn with `column` set to the next of `words`. */
function withWords(file: string, column: string, words: readonly string[]): Row[] {
  return rowsOf(file).map((row, i) => ({ ...row, [column]: words[i % words.length] }));
}

describe('status words the city publishes', () => {
  it('dob_safety_violations: every word of the 2026 vocabulary has a status, an unknown one is counted', async () => {
    // the 855j-jady vocabulary of 2026-10 (docs/sources.md), `Paid  - Pending Dismissal` with its two spaces
    const words = ['Active', 'Dismissed', 'Disputed Successfully', 'Waived - Pending Dismissal', 'Pending Dismissal', 'Cured', 'Paid  - Pending Dismissal', 'Reopened Later'];
    const file = await parseText('dob_safety_violations', csvOf(withWords(sharedFixture('dob_safety_violations.csv'), 'Violation Status', words)));
    expectBalanced(file.counters);
    const byWord = new Map(file.events.map((event) => [event.attributes['violation_status'], event.status]));
    expect(Object.fromEntries(byWord)).toEqual({
      Active: 'open',
      Dismissed: 'dismissed',
      'Disputed Successfully': 'dismissed',
      'Waived - Pending Dismissal': 'resolved',
      'Pending Dismissal': 'resolved',
      Cured: 'resolved',
      'Paid - Pending Dismissal': 'resolved',
      'Reopened Later': null,
    });
    // the unknown word is kept on the event and counted in the run, not dropped
    expect(file.counters.ok).toBe(file.counters.read);
    expect(file.counters.unmappedWords).toEqual({ 'Violation Status: REOPENED LATER': 1 });
  });

  it('dob_violations: V% and the other categories without `*` are active, `*` closes; an unlisted category is counted and read by the rule', async () => {
    const words = ['V%-DOB VIOLATION', 'V-DOB VIOLATION - ACTIVE', 'VW-VIOLATION WORK WITHOUT PERMIT - ACTIVE', 'V*-DOB VIOLATION - DISMISSED', 'V*-DOB VIOLATION - Resolved', 'VX*-SOMETHING NEW - DISMISSED', 'VX-SOMETHING NEW'];
    const file = await parseText('dob_violations', csvOf(withWords(sharedFixture('dob_violations.csv'), 'VIOLATION_CATEGORY', words)));
    const byCategory = new Map(file.events.map((event) => [event.attributes['violation_category'], event.status]));
    expect(Object.fromEntries(byCategory)).toEqual({
      'V%-DOB VIOLATION': 'open',
      'V-DOB VIOLATION - ACTIVE': 'open',
      'VW-VIOLATION WORK WITHOUT PERMIT - ACTIVE': 'open',
      'V*-DOB VIOLATION - DISMISSED': 'dismissed',
      'V*-DOB VIOLATION - Resolved': 'resolved',
      'VX*-SOMETHING NEW - DISMISSED': 'dismissed',
      'VX-SOMETHING NEW': 'open',
    });
    const open = file.events.find((event) => event.attributes['violation_category'] === 'V%-DOB VIOLATION');
    expect(open?.closed_on).toBeNull();
    expect(Object.keys(file.counters.unmappedWords).sort()).toEqual(['VIOLATION_CATEGORY: VX*-SOMETHING NEW - DISMISSED', 'VIOLATION_CATEGORY: VX-SOMETHING NEW']);
  });

  it('nyc311: every status word of the 2020-to-present set', async () => {
    const words = ['Closed', 'Open', 'Assigned', 'In Progress', 'Pending', 'Started', 'Unspecified'];
    const rows = rowsOf(sharedFixture('nyc311_service_requests.csv')).filter((row) => ['HPD', 'DOB'].includes(row['Agency']));
    const expected = ['closed', 'open', 'open', 'open', 'open', 'open', null];
    for (const [i, word] of words.entries()) {
      const file = await parseText('nyc311', csvOf(rows.map((row) => ({ ...row, Status: word }))));
      expect(file.events.length).toBeGreaterThan(0);
      for (const event of file.events) expect(event.status).toBe(expected[i]);
      expect(file.counters.unmappedWords).toEqual({});
    }
  });

  it('ecb, HPD and DOB complaint statuses: published words mapped, `Unknown` is no state, a new word is counted', async () => {
    const ecb = await parseText('dob_ecb_violations', csvOf(withWords(sharedFixture('ecb_violations.csv'), 'ECB_VIOLATION_STATUS', ['ACTIVE', 'RESOLVE', 'Unknown'])));
    expect(ecb.events.map((event) => event.status)).toEqual(['open', 'resolved', null, 'open', 'resolved']);
    expect(ecb.counters.unmappedWords).toEqual({});
    const complaints = await parseText('dob_complaints', csvOf(withWords(sharedFixture('dob_complaints.csv'), 'Status', ['ACTIVE', 'CLOSED', 'REFERRED'])), mapResolver(binsOf('dob_complaints.csv', 'BIN')));
    expect(new Set(complaints.events.map((event) => event.status))).toEqual(new Set(['open', 'closed', null]));
    expect(complaints.counters.unmappedWords).toEqual({ 'Status: REFERRED': 20 });
  });

  it('job filings: the statuses of the real rows are listed, another is counted and read by its words', async () => {
    const bis = await parseText('dob_job_filings', readFileSync(localFixture('current/dob_job_filings.csv'), 'utf8'));
    const now = await parseText('dob_now_job_filings', readFileSync(localFixture('current/dob_now_job_filings.csv'), 'utf8'));
    expect(bis.counters.unmappedWords).toEqual({});
    expect(now.counters.unmappedWords).toEqual({});
    expect(new Set(now.events.map((event) => event.status))).toEqual(new Set(['closed', 'filed']));
    const renamed = await parseText('dob_now_job_filings', csvOf(withWords(localFixture('current/dob_now_job_filings.csv'), 'Filing Status', ['Sign-Off Completed'])));
    expect(new Set(renamed.events.map((event) => event.status))).toEqual(new Set(['closed']));
    expect(renamed.counters.unmappedWords).toEqual({ 'Filing Status: SIGN-OFF COMPLETED': renamed.counters.read });
  });

  it('tax lien cycles in both published spellings, eviction kinds with `Unspecified`', async () => {
    const liens = await parseText('dof_tax_liens', csvOf(withWords(sharedFixture('dof_tax_lien_sale_list.csv'), 'Cycle', ['10 Day Notice', '10 Days Notice'])));
    expect(new Set(liens.events.map((event) => event.severity))).toEqual(new Set(['high']));
    const evictions = await parseText('evictions', csvOf(withWords(sharedFixture('executed_evictions.csv'), 'Eviction/Legal Possession', ['Unspecified'])));
    expect(evictions.events.length).toBeGreaterThan(0);
    for (const event of evictions.events) expect(event.description).toMatch(/^Executed eviction or legal possession/);
  });
});

/** Every BIN of a fixture mapped to a BBL of its borough, for sources that carry only a BIN. */
function binsOf(file: string, column: string): Record<number, string> {
  return Object.fromEntries(rowsOf(sharedFixture(file)).map((row) => [Number(row[column]), `${row[column].slice(0, 1)}000010001`]));
}

describe('record keys the same through the CSV export and the JSON API', () => {
  it('dof_tax_liens: `05/2025` and `2025-05-01T00:00:00.000` are one listing', async () => {
    const source = getSource('dof_tax_liens');
    const text = readFileSync(sharedFixture('dof_tax_lien_sale_list.csv'), 'utf8');
    const csv = await parseText('dof_tax_liens', text);
    // the API serves `month` as a first-of-month floating timestamp (docs/sources.md, tax liens)
    const json = csvToSodaRows(source.parts[0], text, columnsOf(source.parts[0])).map((row) => ({ ...row, month: row['month'].replace(/^(\d{2})\/(\d{4})$/, '$2-$1-01T00:00:00.000') }));
    expect(json[0]['month']).toBe('2019-04-01T00:00:00.000');
    const soda = await parseSoda(source, json, { resolver: mapResolver() });
    expect(csv.events.length).toBe(60);
    expect(soda.events.map((event) => event.source_record_id)).toEqual(csv.events.map((event) => event.source_record_id));
    expect(soda.events).toEqual(csv.events);
    expect(csv.events[0].source_record_id).toBe('04/2019:1:16:3:90 Day Notice');
  });

  it('dohmh_rodents: the visit key is the same from `06/07/2023 04:36:13 PM` and `2023-06-07T16:36:13.000`', async () => {
    const source = getSource('dohmh_rodents');
    const text = readFileSync(sharedFixture('dohmh_rodent_inspections.csv'), 'utf8');
    const csv = await parseText('dohmh_rodents', text);
    const soda = await parseSoda(source, csvToSodaRows(source.parts[0], text, columnsOf(source.parts[0]), { isoDates: true }), { resolver: mapResolver() });
    expect(soda.events.map((event) => event.source_record_id)).toEqual(csv.events.map((event) => event.source_record_id));
    expect(csv.events.map((event) => event.source_record_id)).toContain('PC8122655:INITIAL:2023-06-07');
  });

  it('dob_complaints: an alphanumeric complaint number is kept as text through both paths', async () => {
    // a real row with its number in the shape DOB now also issues (digits and a letter)
    const rows = rowsOf(sharedFixture('dob_complaints.csv')).slice(0, 2);
    rows[0]['Complaint Number'] = '4A28951';
    const resolver = mapResolver(binsOf('dob_complaints.csv', 'BIN'));
    const csv = await parseText('dob_complaints', csvOf(rows), resolver);
    expect(csv.counters).toMatchObject({ read: 2, ok: 2, quarantined: 0 });
    expect(csv.events[0]).toMatchObject({ source_record_id: '4A28951', attributes: { complaint_number: '4A28951' } });
    expect(csv.events[1].attributes['complaint_number']).toBe(rows[1]['Complaint Number']);
    const soda = await parseSoda(getSource('dob_complaints'), csvToSodaRows(getSource('dob_complaints').parts[0], csvOf(rows), columnsOf(getSource('dob_complaints').parts[0])), { resolver });
    expect(soda.events).toEqual(csv.events);
  });
});

describe('layouts', () => {
  it('nyc311: a 2026 JSON row with `descriptor_2` and computed region fields loads, the additional details kept', async () => {
    const source = getSource('nyc311');
    const [row] = csvToSodaRows(source.parts[0], csvOf(rowsOf(sharedFixture('nyc311_service_requests.csv')).filter((r) => r['Agency'] === 'HPD').slice(0, 1)), columnsOf(source.parts[0]));
    const soda = await parseSoda(source, [{ ...row, descriptor_2: 'FHE', council_district: '16', police_precinct: '44', ':@computed_region_efsh_h5xi': '10930' }]);
    expect(soda.counters).toMatchObject({ read: 1, ok: 1 });
    expect(soda.events[0].attributes).toMatchObject({ additional_details: 'FHE' });
    expect(source.parts[0].sodaFields['Additional Details']).toBe('descriptor_2');
  });

  it('fdny_vacates: the 2017 layout (no BIN, no BBL) fails naming the columns expected', async () => {
    // the view's columns in 2017 (docs/sources.md, FDNY vacates), with the first real row
    const text = 'vac_date,num,pf,street,typ,sf,bor,date_of_lif,area_vac,div\n05/19/2008,1234,,INTERVALE,AVE,,BX,,ENTIRE BLDG,6\n';
    const failure = parseText('fdny_vacates', text);
    await expect(failure).rejects.toBeInstanceOf(HeaderMismatchError);
    await expect(failure).rejects.toThrow(/missing columns \[description, vac_date|missing columns \[description, status_change_date/);
    await expect(failure).rejects.toThrow(/bin, bbl\]; unexpected columns \[num, pf, street, typ, sf, bor, date_of_lif, area_vac, div\]/);
  });

  it('fdny_vacates: the disposition words of the 2026 list decide, an unknown one is counted', async () => {
    // `description` holds `Rescinded` / `Dismissal`, or nothing while the order is in force (docs/sources.md)
    const rows = rowsOf(localFixture('fdny_vacates.csv')).slice(0, 1);
    const words = ['', 'Rescinded', 'Dismissal', 'Lifted'];
    const file = await parseText('fdny_vacates', csvOf(words.map((word, i) => ({ ...rows[0], description: word, vac_date: `03/0${i + 2}/2024` }))));
    expect(file.events.map((event) => event.status)).toEqual(['active', 'rescinded', 'dismissed', 'active']);
    expect(file.counters.unmappedWords).toEqual({ 'description: LIFTED': 1 });
  });

  it('dob_facades: the export of the 36 upper-case columns loads through the JSON API the same', async () => {
    const source = getSource('dob_facades');
    const text = readFileSync(localFixture('dob_facades.csv'), 'utf8');
    const csv = await parseText('dob_facades', text);
    const soda = await parseSoda(source, csvToSodaRows(source.parts[0], text, columnsOf(source.parts[0])), { resolver: mapResolver() });
    expect(csv.events).toHaveLength(9);
    expect(soda.events).toEqual(csv.events);
    expect(source.parts[0].sodaFields['LATE_FILING_AMT']).toBe('late_filing_amt');
    expect(source.parts[0].sodaFields['EXTERIOR_WALL_TYPE_S_']).toBe('exterior_wall_type_s_');
  });
});
