import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { RecordOutcome, SourcePart } from './definition';
import { headerOf } from './definitions/common';
import { canonicalColumn } from './layout';
import { sourceForFile } from './registry';
import { matchSodaFields, PublishedColumn, sodaFieldMap } from './soda-fields';
import { csvToSodaRows, LOCAL_FIXTURES, mapResolver, parseFile, parseSoda, SHARED_FIXTURES, sodaMetadataFixture } from './testing/fixtures';

/**
 * Every real row (the shared fixtures and the current-format files) through both paths: the CSV
 * export and the SODA JSON rows of the same records, named by the data set's published view
 * metadata (test-fixtures/soda-metadata) and read through it. Each loads or is set aside with a
 * reason, and the JSON path gives the same outcome as the CSV path.
 */
const FILES = [
  ...readdirSync(SHARED_FIXTURES).map((name) => path.join(SHARED_FIXTURES, name)),
  ...readdirSync(path.join(LOCAL_FIXTURES, 'current')).map((name) => path.join(LOCAL_FIXTURES, 'current', name)),
  // sources without a published export file: facade rows from the view metadata, the others built from field lists
  ...['hpd_bedbugs.csv', 'dob_facades.csv', 'fdny_vacates.csv'].map((name) => path.join(LOCAL_FIXTURES, name)),
]
  .map((file) => ({ file, match: sourceForFile(file) }))
  .filter((entry): entry is { file: string; match: NonNullable<ReturnType<typeof sourceForFile>> } => entry.match !== null)
  .map(({ file, match }) => [`${match.source.key}/${match.part.part} ${path.basename(file)}`, file, match] as const);

/** Columns of a file that the data set's metadata does not place. */
function unpublishedColumns(part: SourcePart, text: string, columns: readonly PublishedColumn[]): string[] {
  const { fields } = matchSodaFields(part, columns).map;
  return headerOf(text.split(/\r?\n/, 1)[0]).filter((name) => !fields.has(canonicalColumn(part, name)));
}

/** What a record is, without the attributes an unpublished column fills. */
function identity(outcome: RecordOutcome): unknown {
  if (outcome.kind !== 'ok') return { kind: outcome.kind, reason: outcome.reason };
  return { kind: 'ok', events: outcome.events.map(({ bbl, source_record_id, event_type, status, occurred_on }) => ({ bbl, source_record_id, event_type, status, occurred_on })) };
}

function summary(outcome: RecordOutcome): unknown {
  if (outcome.kind === 'ok') return { kind: 'ok', events: outcome.events, facts: outcome.facts };
  return { kind: outcome.kind, reason: outcome.reason };
}

describe('every real row through the file and the SODA path', () => {
  it('covers the current-format files', () => {
    expect(new Set(FILES.map(([, , match]) => match.source.key)).size).toBe(25);
    expect(FILES.filter(([, file]) => file.includes(`${path.sep}current${path.sep}`)).map(([, file]) => path.basename(file)).sort()).toEqual([
      'dob_job_filings.csv',
      'dob_now_job_filings.csv',
      'evictions.csv',
      'hpd_jurisdiction.csv',
      'hpd_litigations.csv',
      'pluto.csv',
    ]);
  });

  it.each(FILES)('%s', async (_name, file, match) => {
    const resolver = mapResolver();
    const csv = await parseFile(match.source, file, { resolver, part: match.part.part });
    expect(csv.counters.read).toBe(csv.counters.ok + csv.counters.quarantined + csv.counters.notRelevant);
    for (const record of csv.records) {
      if (record.outcome.kind !== 'ok') expect(record.outcome.reason).toMatch(/\w/);
    }
    if (!match.part.datasetId) return;
    // SODA serves dates as ISO floating timestamps (`2023-06-07T16:36:13.000`)
    const { columns } = sodaMetadataFixture(match.part.datasetId);
    const rows = csvToSodaRows(match.part, readFileSync(file, 'utf8'), columns, { isoDates: true });
    const soda = await parseSoda(match.source, rows, { resolver, part: match.part.part, sodaFields: sodaFieldMap(match.source, match.part, columns) });
    expect(soda.counters.unknownFields).toEqual({});
    expect(soda.counters.part).toBe(match.part.part);
    const parsedRows = csv.records.filter((record) => !(record.outcome.kind === 'quarantined' && ['wrong_column_count', 'unparseable_row'].includes(record.outcome.reason)));
    // a file of an older layout can carry columns the data set no longer publishes (rodents before
    // 2026-08): the JSON rows cannot hold them, so only what does not read them is compared
    const gone = csv.counters.variant === 'current' ? [] : unpublishedColumns(match.part, readFileSync(file, 'utf8'), columns);
    const compare = gone.length === 0 ? summary : identity;
    expect(soda.records.map((record) => compare(record.outcome))).toEqual(parsedRows.map((record) => compare(record.outcome)));
  });
});
