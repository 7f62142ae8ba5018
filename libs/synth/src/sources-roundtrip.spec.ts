import { createReadStream, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatBbl } from '@bhis/domain';
import { csvToSodaRows, getSource, parseSodaRows, parseSource, sodaFieldMap, sourceForFile, type BblResolver, type ParseCounters, type PublishedColumn } from '@bhis/sources';
import { OUTPUT_FILES } from './formats/files';
import { OLDER_LAYOUT_SOURCES } from './formats/older-layouts';
import { generateCity } from './generate-city';
import { readCsvObjects } from './testing/read-csv';

/** A data set's published view metadata (libs/sources/test-fixtures/soda-metadata, sources in its README). */
function publishedColumns(datasetId: string): PublishedColumn[] {
  return (JSON.parse(readFileSync(join(__dirname, '../../sources/test-fixtures/soda-metadata', `${datasetId}.json`), 'utf8')) as { columns: PublishedColumn[] }).columns;
}

/**
 * The generated files go through the real source definitions: header check and streaming parser.
 * Only the quirks injected on purpose may be quarantined.
 */
describe.each([
  { layouts: 'current', olderLayouts: false },
  { layouts: 'older', olderLayouts: true },
])('a synthetic city in its $layouts layouts read by @bhis/sources', ({ olderLayouts }) => {
  const dir = mkdtempSync(join(tmpdir(), 'synth-roundtrip-'));
  const counters = new Map<string, ParseCounters>();
  const sodaCounters = new Map<string, ParseCounters>();

  beforeAll(async () => {
    await generateCity({ buildings: 300, seed: 7, outDir: dir, olderLayouts });
    const bins = new Map<number, string>();
    const registrations = new Map<number, string>();
    for (const row of readCsvObjects(join(dir, 'hpd_jurisdiction.csv'))) {
      const bbl = formatBbl(Number(row.BoroID), Number(row.Block), Number(row.Lot));
      if (bbl && row.BIN) bins.set(Number(row.BIN), bbl);
    }
    for (const row of readCsvObjects(join(dir, 'hpd_registrations.csv'))) {
      const bbl = formatBbl(Number(row.BoroID), Number(row.Block), Number(row.Lot));
      if (bbl) registrations.set(Number(row.RegistrationID), bbl);
      if (bbl) bins.set(Number(row.BIN), bbl);
    }
    const resolver: BblResolver = {
      resolveBin: (bin) => bins.get(bin) ?? null,
      resolveRegistration: (id) => registrations.get(id) ?? null,
    };
    for (const file of readdirSync(dir).filter((name) => name !== 'truth.csv')) {
      const match = sourceForFile(file);
      if (!match) throw new Error(`no source claims ${file}`);
      const parse = parseSource(match.source, createReadStream(join(dir, file)), { resolver, now: new Date('2026-11-01T00:00:00Z') });
      for await (const record of parse) void record;
      counters.set(file, parse.counters);
      if (!match.part.datasetId) continue;
      // the same records as the JSON API serves them, named by the data set's published view metadata
      const columns = publishedColumns(match.part.datasetId);
      const rows = csvToSodaRows(match.part, readFileSync(join(dir, file), 'utf8'), columns, { isoDates: true });
      const soda = parseSodaRows(match.source, rows, { resolver, part: match.part.part, now: new Date('2026-11-01T00:00:00Z'), sodaFields: sodaFieldMap(match.source, match.part, columns) });
      for await (const record of soda) void record;
      sodaCounters.set(file, soda.counters);
    }
  }, 120_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('every file passes the header check of its source', () => {
    expect(counters.size).toBe(27);
  });

  it('quarantines only the injected quirks', () => {
    const summary = [...counters].map(([file, c]) => ({ file, read: c.read, quarantined: c.quarantinedByReason, castFailures: c.castFailures }));
    const unexpected = summary.filter(({ file, quarantined }) => {
      const reasons = Object.keys(quarantined);
      return reasons.some((reason) => !(ALLOWED[file] ?? []).includes(reason));
    });
    expect(unexpected).toEqual([]);
    expect(counters.get('hpd_violations.csv')?.quarantinedByReason.wrong_column_count).toBeGreaterThan(0);
    let read = 0;
    let quarantined = 0;
    for (const c of counters.values()) {
      read += c.read;
      quarantined += c.quarantined;
    }
    expect(quarantined / read).toBeLessThan(0.01);
  });

  it('writes only value words the sources map (none counted as unmapped)', () => {
    const unmapped = [...counters].filter(([, c]) => Object.keys(c.unmappedWords).length > 0).map(([file, c]) => ({ file, words: c.unmappedWords }));
    expect(unmapped).toEqual([]);
  });

  it('writes the formats the city publishes now: upper-case facades, 2026 rodents, lettered complaint numbers, the closing words', () => {
    const header = (file: string) => readFileSync(join(dir, file), 'utf8').split('\n', 1)[0].split(',');
    expect(header(OUTPUT_FILES.dob_facades).slice(0, 3)).toEqual(['TR6_NO', 'CONTROL_NO', 'FILING_TYPE']);
    expect(counters.get(OUTPUT_FILES.dob_facades)?.variant).toBe('current');
    if (!olderLayouts) expect(header(OUTPUT_FILES.dohmh_rodents)).not.toContain('JOB_PROGRESS');
    const complaints = readCsvObjects(join(dir, OUTPUT_FILES.dob_complaints)).map((row) => row['Complaint Number']);
    expect(complaints.some((number) => /^\d[A-J]\d+$/.test(number ?? ''))).toBe(true);
    const statuses = new Set(readCsvObjects(join(dir, OUTPUT_FILES.dob_safety_violations)).map((row) => row['Violation Status']));
    expect(statuses.has('Active') && statuses.has('Dismissed')).toBe(true);
    expect([...statuses].some((word) => /Pending Dismissal|Disputed Successfully|Cured/.test(word ?? ''))).toBe(true);
  });

  it('its JSON rows, named by the published metadata, load as its files do', () => {
    expect(sodaCounters.size).toBe(26);
    for (const [file, soda] of sodaCounters) {
      const csv = counters.get(file) as ParseCounters;
      // a row injected with a wrong column count is still a row as JSON (its fields read as written)
      const injected = csv.quarantinedByReason.wrong_column_count ?? 0;
      expect({ file, read: soda.read, unknown: soda.unknownFields }).toEqual({ file, read: csv.read, unknown: {} });
      expect(soda.ok - csv.ok).toBeGreaterThanOrEqual(0);
      expect(soda.ok - csv.ok).toBeLessThanOrEqual(injected);
    }
  });

  it('reads the files of older layouts in the layout they were written in', () => {
    const layoutOf = (file: string) => counters.get(file)?.variant;
    for (const key of OLDER_LAYOUT_SOURCES) {
      const oldest = `variant ${getSource(key).parts[0].headerVariants.length}`;
      expect({ key, layout: layoutOf(OUTPUT_FILES[key]) }).toEqual({ key, layout: olderLayouts ? oldest : 'current' });
    }
    expect(layoutOf(OUTPUT_FILES.nyc311_2010_2019)).toBe('variant 1');
  });
});

/** Quarantines the generator causes on purpose, per file. */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  'hpd_jurisdiction.csv': ['no_bbl'], // the inactive placeholder rows (address and block 0)
  'hpd_violations.csv': ['wrong_column_count'],
  'nyc311_service_requests.csv': ['no_bbl'],
  '311_service_requests_2010_2019.csv': ['no_bbl'],
  'dob_complaints.csv': ['no_bbl'],
  'hpd_underlying_conditions.csv': ['invalid_date', 'missing_date'],
  'dob_vacate_orders.csv': ['invalid_date'],
  'executed_evictions.csv': ['no_bbl'],
};
