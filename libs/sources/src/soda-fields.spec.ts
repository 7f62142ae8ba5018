import { readdirSync } from 'node:fs';
import path from 'node:path';
import { parseSodaRows, SodaRowsMismatchError, sodaRowToValues } from './parse';
import { getSource, SOURCES } from './registry';
import { matchSodaFields, PublishedColumn, SodaFieldMismatchError, sodaFieldMap } from './soda-fields';
import { LOCAL_FIXTURES, sodaMetadataFixture } from './testing/fixtures';
import type { SourceDefinition, SourcePart } from './definition';

const OPEN_DATA_PARTS = SOURCES.flatMap((source) => source.parts.filter((part) => part.datasetId).map((part) => [`${source.key}/${part.part} ${part.datasetId}`, source, part] as const));

function partOf(key: string, part = 'main'): { source: SourceDefinition; part: SourcePart; columns: PublishedColumn[] } {
  const source = getSource(key);
  const found = source.parts.find((candidate) => candidate.part === part) as SourcePart;
  return { source, part: found, columns: sodaMetadataFixture(found.datasetId as string).columns };
}

/** The published metadata with one column's display name and/or field name changed. */
function renamed(columns: readonly PublishedColumn[], fieldName: string, change: Partial<PublishedColumn>): PublishedColumn[] {
  expect(columns.some((column) => column.fieldName === fieldName)).toBe(true);
  return columns.map((column) => (column.fieldName === fieldName ? { ...column, ...change } : column));
}

async function drain(run: AsyncIterable<unknown>): Promise<void> {
  for await (const record of run) void record;
}

describe('field names from the view metadata', () => {
  it('has a published metadata document for every data set a source downloads', () => {
    const files = readdirSync(path.join(LOCAL_FIXTURES, 'soda-metadata')).filter((name) => name.endsWith('.json'));
    expect(files.map((name) => name.replace('.json', '')).sort()).toEqual(OPEN_DATA_PARTS.map(([, , part]) => part.datasetId).sort());
    expect(new Set(OPEN_DATA_PARTS.map(([, source]) => source.key)).size).toBe(24);
  });

  it.each(OPEN_DATA_PARTS)('%s: every column of the current layout is placed by its published display name', (_name, source, part) => {
    const { columns } = sodaMetadataFixture(part.datasetId as string);
    const map = sodaFieldMap(source, part, columns);
    expect(map.followed).toEqual([]);
    const placed = new Set(map.fields.values());
    expect(placed.size).toBe(map.fields.size);
    for (const field of placed) expect(map.published.has(field)).toBe(true);
  });

  it.each([
    ['nyc311', 'Additional Details', 'descriptor_2', 'additional_details'],
    ['hpd_litigations', 'OpenJudgement', 'casejudgement', 'openjudgement'],
    ['hpd_litigations', 'Boro', 'boroid', 'boro'],
    ['evictions', 'Eviction Postcode', 'eviction_zip', 'eviction_postcode'],
    ['dob_safety_violations', 'Postcode', 'zip', 'postcode'],
    ['dob_safety_violations', 'Census Tract (2020)', 'census_tract_2020_', 'census_tract'],
    ['dob_safety_violations', 'Neighborhood Tabulation Area (NTA) (2020)', 'neighborhood_tabulation_area_nta_2020_', 'nta'],
    ['dob_now_job_filings', 'Boiler Equipment (Work Type)', 'boiler_equipment_work_type_', 'boiler_equipment_work_type'],
    ['dob_now_job_filings', 'Full Demolition (Work Type)', 'full_demolition_work_type_', 'full_demolition_work_type'],
    ['dob_now_job_filings', 'Stand Pipe (Work Type)', 'standpipe', 'stand_pipe_work_type'],
    ['dob_now_job_filings', 'Curb Cut (Work Type)', 'curb_cut', 'curb_cut_work_type'],
  ])('%s: the value published under %s\'s field (%s) reaches the column; the lower-cased display name (%s) is not published', (key, column, published, guess) => {
    const { source, part, columns } = partOf(key);
    const map = sodaFieldMap(source, part, columns);
    expect(map.fields.get(column)).toBe(published);
    expect(map.published.has(guess)).toBe(false);
    expect(sodaRowToValues(part, { [published]: 'X1' }, map).get(column)).toBe('X1');
  });

  it('follows a display name the city changed while the field name stayed (Socrata keeps field names)', () => {
    const { source, part, columns } = partOf('evictions');
    const map = sodaFieldMap(source, part, renamed(columns, 'eviction_zip', { name: 'Eviction Zip Code' }));
    expect(map.fields.get('Eviction Postcode')).toBe('eviction_zip');
    expect(map.followed).toEqual(['Eviction Postcode -> field eviction_zip ("Eviction Zip Code")']);
  });

  it('follows a column re-created under a new display name and the old field name with a `_1` suffix', () => {
    const { source, part, columns } = partOf('hpd_litigations');
    const map = sodaFieldMap(source, part, renamed(columns, 'casejudgement', { name: 'Case Judgement', fieldName: 'casejudgement_1' }));
    expect(map.fields.get('OpenJudgement')).toBe('casejudgement_1');
    expect(sodaRowToValues(part, { casejudgement_1: 'YES' }, map).get('OpenJudgement')).toBe('YES');
  });

  it('follows a field name the city changed while the display name stayed', () => {
    const { source, part, columns } = partOf('nyc311');
    const map = sodaFieldMap(source, part, renamed(columns, 'descriptor_2', { fieldName: 'additional_details_1' }));
    expect(map.fields.get('Additional Details')).toBe('additional_details_1');
    expect(map.followed).toEqual([]);
  });

  it('fails naming the data set and the column when both names changed beyond recognition', () => {
    const { source, part, columns } = partOf('hpd_litigations');
    const changed = renamed(columns, 'casejudgement', { name: 'Judgment Entered', fieldName: 'judgment_entered' });
    expect(() => sodaFieldMap(source, part, changed)).toThrow(SodaFieldMismatchError);
    expect(() => sodaFieldMap(source, part, changed)).toThrow(/hpd_litigations \(main, data set 59kj-x8nc\).*"OpenJudgement" \(declared field casejudgement\) is not published.*"Judgment Entered" = judgment_entered/);
  });

  it('fails when two re-created columns could each be the renamed one', () => {
    const { source, part, columns } = partOf('hpd_litigations');
    const changed = [...renamed(columns, 'casejudgement', { name: 'Judgement A', fieldName: 'casejudgement_1' }), { name: 'Judgement B', fieldName: 'casejudgement_2' }];
    expect(() => sodaFieldMap(source, part, changed)).toThrow(/"OpenJudgement".*fields casejudgement_1, casejudgement_2 could each be it/);
  });

  it('fails when a display name the source reads is published twice', () => {
    const { source, part, columns } = partOf('evictions');
    expect(() => sodaFieldMap(source, part, [...columns, { name: 'Executed Date', fieldName: 'executed_date_1' }])).toThrow(/"Executed Date" is published 2 times/);
  });

  it('places what it can and lists the rest when asked not to fail (CSV layouts)', () => {
    const { part, columns } = partOf('evictions');
    const { map, problems } = matchSodaFields(part, columns.filter((column) => column.fieldName !== 'bbl'));
    expect(problems).toEqual(['"BBL" (declared field bbl) is not published']);
    expect(map.fields.get('BIN')).toBe('bin');
  });
});

describe('SODA rows read through the metadata', () => {
  const { source, part, columns } = partOf('evictions');
  const map = sodaFieldMap(source, part, columns);
  const row = { court_index_number: '306810/22K', docket_number: '120701', executed_date: '2024-02-26T00:00:00.000', residential_commercial_ind: 'Residential', eviction_zip: '11226', bbl: '3048060077' };

  it('counts a field the metadata does not publish, per field, and still loads the row', async () => {
    const run = parseSodaRows(source, [{ ...row, ':id': 'row-1', eviction_unit_type: 'APT' }, { ...row, docket_number: '2', eviction_unit_type: 'APT' }], { sodaFields: map });
    await drain(run);
    expect(run.counters).toMatchObject({ read: 2, ok: 2, unknownFields: { eviction_unit_type: 2 } });
  });

  it('fails when the rows carry a field under another spelling of one the metadata names (the metadata is stale)', async () => {
    const stale = sodaFieldMap(source, part, renamed(columns, 'executed_date', { fieldName: 'executeddate' }));
    await expect(drain(parseSodaRows(source, [row], { sodaFields: stale }))).rejects.toThrow(SodaRowsMismatchError);
    await expect(drain(parseSodaRows(source, [row], { sodaFields: stale }))).rejects.toThrow(
      /evictions \(main, data set 6z8x-wfk4\): the rows and the view metadata disagree: the rows carry executed_date where it names executeddate, which no row carries/,
    );
    const suffixed = sodaFieldMap(source, part, renamed(columns, 'bbl', { fieldName: 'bbl_1' }));
    await expect(drain(parseSodaRows(source, [row], { sodaFields: suffixed }))).rejects.toThrow(/the rows carry bbl where it names bbl_1/);
  });

  it('fails when the rows carry none of the fields the metadata names', async () => {
    await expect(drain(parseSodaRows(source, [{ foo: '1', bar: '2' }], { sodaFields: map }))).rejects.toThrow(/the rows carry none of the fields it names and fields it does not publish \[foo, bar\]/);
  });

  it('loads rows that leave out columns that are empty (SODA omits nulls) without complaint', async () => {
    const run = parseSodaRows(source, [{ court_index_number: '1', docket_number: '2', executed_date: '2024-02-26T00:00:00.000', bbl: '3048060077' }], { sodaFields: map });
    await drain(run);
    expect(run.counters).toMatchObject({ read: 1, ok: 1, unknownFields: {} });
  });
});
