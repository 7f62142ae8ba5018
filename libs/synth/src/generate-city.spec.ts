import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { generateCity, type CityReport } from './generate-city';
import { MAX_ID } from './id-space';
import { OUTPUT_FILES } from './formats/files';
import { HEADERS, type SourceKey } from './formats/headers';
import { firstLine, readCsv, readCsvObjects } from './testing/read-csv';

const FIXTURES = join(__dirname, '../../../../shared/fixtures/nyc-open-data');
const BUILDINGS = 300;

function digest(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const file of readdirSync(dir).sort()) out[file] = createHash('sha256').update(readFileSync(join(dir, file))).digest('hex');
  return out;
}

describe('generateCity', () => {
  const root = mkdtempSync(join(tmpdir(), 'synth-spec-'));
  const dirA = join(root, 'a');
  const dirB = join(root, 'b');
  const dirOtherSeed = join(root, 'c');
  const dirLater = join(root, 'later');
  const dirChanges = join(root, 'changes');
  let report: CityReport;
  let changes: CityReport;

  beforeAll(async () => {
    report = await generateCity({ buildings: BUILDINGS, seed: 42, outDir: dirA });
    await generateCity({ buildings: BUILDINGS, seed: 42, outDir: dirB });
    await generateCity({ buildings: BUILDINGS, seed: 43, outDir: dirOtherSeed });
    await generateCity({ buildings: BUILDINGS, seed: 42, outDir: dirLater, asOf: '2026-12-01' });
    changes = await generateCity({ buildings: BUILDINGS, seed: 42, outDir: dirChanges, asOf: '2026-12-01', changesSince: '2026-11-01' });
  }, 300_000);

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('is deterministic for a seed and differs between seeds', () => {
    const a = digest(dirA);
    expect(digest(dirB)).toEqual(a);
    const other = digest(dirOtherSeed);
    expect(other['hpd_violations.csv']).not.toEqual(a['hpd_violations.csv']);
    expect(other['pluto_latest.csv']).not.toEqual(a['pluto_latest.csv']);
  });

  it('writes one file per source plus truth.csv and reports rows and bytes', () => {
    const files = readdirSync(dirA).sort();
    expect(files).toEqual([...Object.values(OUTPUT_FILES), 'truth.csv'].sort());
    const violations = report.files.find((f) => f.source === 'hpd_violations');
    expect(violations?.rows).toBe(readCsv(join(dirA, 'hpd_violations.csv')).length - 1);
    expect(report.totalBytes).toBeGreaterThan(0);
  });

  it('writes header lines identical to the real files', () => {
    for (const [source, file] of Object.entries(OUTPUT_FILES) as [SourceKey, string][]) {
      const fixture = join(FIXTURES, file);
      let expected: string = HEADERS[source];
      try {
        // 311 and rodent inspections are written in their 2026 layouts, newer than the fixtures
        if (!['nyc311', 'nyc311_2010_2019', 'dohmh_rodents'].includes(source)) expected = firstLine(fixture);
      } catch {
        // the three sets without a fixture: the documented field list
      }
      expect({ file, header: firstLine(join(dirA, file)) }).toEqual({ file, header: expected });
    }
  });

  it('writes the drifted ECB header only when asked', async () => {
    const dir = join(root, 'drift');
    await generateCity({ buildings: 20, seed: 42, outDir: dir, headerDrift: true });
    expect(firstLine(join(dir, 'ecb_violations.csv'))).toBe(firstLine(join(FIXTURES, 'ecb_violations_invalid_header.csv')));
    expect(firstLine(join(dirA, 'ecb_violations.csv'))).toBe(firstLine(join(FIXTURES, 'ecb_violations.csv')));
  });

  it('writes the same files gzip-compressed when asked (truth.csv stays plain)', async () => {
    const dir = join(root, 'gzip');
    const gz = await generateCity({ buildings: 20, seed: 42, outDir: dir, gzip: true });
    const plainDir = join(root, 'plain-20');
    await generateCity({ buildings: 20, seed: 42, outDir: plainDir });
    expect(readdirSync(dir).sort()).toEqual([...Object.values(OUTPUT_FILES).map((f) => `${f}.gz`), 'truth.csv'].sort());
    for (const file of Object.values(OUTPUT_FILES)) {
      expect(gunzipSync(readFileSync(join(dir, `${file}.gz`))).equals(readFileSync(join(plainDir, file)))).toBe(true);
    }
    expect(gz.files.find((f) => f.source === 'hpd_violations')?.file).toBe('hpd_violations.csv.gz');
  });

  it('spreads lots over the boroughs in realistic proportions', () => {
    const lots = readCsvObjects(join(dirA, 'pluto_latest.csv')).filter((row) => row.unitsres !== '0');
    expect(lots).toHaveLength(BUILDINGS);
    const share = (b: string) => lots.filter((row) => row.borough === b).length / lots.length;
    expect(share('QN')).toBeGreaterThan(share('MN'));
    expect(share('BK')).toBeGreaterThan(share('BX'));
    for (const [b, expected] of [['MN', 0.06], ['BX', 0.13], ['BK', 0.32], ['QN', 0.36], ['SI', 0.13]] as const) {
      expect(Math.abs(share(b) - expected)).toBeLessThan(0.05);
    }
    expect(new Set(lots.map((row) => row.BBL)).size).toBe(lots.length);
  });

  it('draws a heavy-tailed number of events per building', () => {
    const perBbl = new Map<string, number>();
    for (const [file, column] of [['hpd_violations.csv', 'BBL'], ['hpd_complaints_and_problems.csv', 'BBL'], ['nyc311_service_requests.csv', 'BBL']] as const) {
      for (const row of readCsvObjects(join(dirA, file))) perBbl.set(row[column], (perBbl.get(row[column]) ?? 0) + 1);
    }
    const truth = readCsvObjects(join(dirA, 'truth.csv'));
    const counts = truth.map((row) => perBbl.get(row.bbl) ?? 0).sort((x, y) => x - y);
    const median = counts[Math.floor(counts.length / 2)];
    const max = counts[counts.length - 1];
    expect(max).toBeGreaterThanOrEqual(20 * Math.max(1, median));
    const mean = report.eventRows / BUILDINGS;
    expect(mean).toBeGreaterThan(60);
    expect(mean).toBeLessThan(1500);
  });

  it('concentrates heat complaints in the heat season (October to May)', () => {
    const heat = readCsvObjects(join(dirA, 'hpd_complaints_and_problems.csv')).filter((row) => row['Major Category'] === 'HEAT/HOT WATER');
    const inSeason = heat.filter((row) => {
      const month = Number(row['Received Date'].slice(0, 2));
      return month >= 10 || month <= 5;
    });
    expect(heat.length).toBeGreaterThan(50);
    expect(inSeason.length / heat.length).toBeGreaterThan(0.85);
  });

  it('keeps malformed rows present but rare', () => {
    let malformed = 0;
    let rows = 0;
    for (const file of Object.values(OUTPUT_FILES)) {
      const [header, ...body] = readCsv(join(dirA, file));
      rows += body.length;
      malformed += body.filter((row) => row.length !== header.length).length;
    }
    const garbledUcp = readCsvObjects(join(dirA, 'hpd_underlying_conditions.csv')).filter((row) => /\/0\d{3}$/.test(row.ORDER_ISSUE_DATE)).length;
    const borough0 = ['nyc311_service_requests.csv', '311_service_requests_2010_2019.csv']
      .flatMap((file) => readCsvObjects(join(dirA, file)))
      .filter((row) => row.BBL.startsWith('0')).length;
    expect(malformed).toBeGreaterThan(0);
    expect(borough0).toBeGreaterThan(0);
    expect((malformed + garbledUcp + borough0) / rows).toBeLessThan(0.001);
  });

  it('a later as-of date keeps the past, changes some statuses and adds records', () => {
    const STATUS_COLUMNS = new Set(['CurrentStatusID', 'CurrentStatus', 'CurrentStatusDate', 'ViolationStatus', 'CertifiedDate']);
    const before = new Map(readCsvObjects(join(dirA, 'hpd_violations.csv')).map((row) => [row.ViolationID, row]));
    const after = new Map(readCsvObjects(join(dirLater, 'hpd_violations.csv')).map((row) => [row.ViolationID, row]));
    const fixedPart = (row: Record<string, string>) => Object.keys(row).filter((column) => !STATUS_COLUMNS.has(column)).map((column) => row[column]).join('|');
    let changed = 0;
    const differing: string[] = [];
    for (const [id, old] of before) {
      const now = after.get(id);
      if (!now || fixedPart(now) !== fixedPart(old)) differing.push(id);
      else if (now.ViolationStatus !== old.ViolationStatus) changed++;
    }
    expect(differing).toEqual([]);
    expect(changed).toBeGreaterThan(0);
    expect(after.size).toBeGreaterThan(before.size);

    const complaintsBefore = readCsvObjects(join(dirA, 'hpd_complaints_and_problems.csv'));
    const complaintsAfter = new Map(readCsvObjects(join(dirLater, 'hpd_complaints_and_problems.csv')).map((row) => [row['Problem ID'], row]));
    expect(complaintsBefore.every((row) => complaintsAfter.get(row['Problem ID'])?.['Received Date'] === row['Received Date'])).toBe(true);
    expect(complaintsBefore.some((row) => complaintsAfter.get(row['Problem ID'])?.['Complaint Status'] !== row['Complaint Status'])).toBe(true);

    const plutoBefore = readFileSync(join(dirA, 'pluto_latest.csv'), 'utf8');
    expect(readFileSync(join(dirLater, 'pluto_latest.csv'), 'utf8')).toBe(plutoBefore);
  });

  it('writes a refresh: exactly the event rows of the later snapshot that the earlier one lacks', () => {
    const lines = (dir: string, file: string): string[] => readFileSync(join(dir, file), 'utf8').split('\n').slice(1).filter(Boolean);
    const written = changes.files.filter((f) => f.source !== 'truth');
    expect(written.length).toBeGreaterThan(0);
    expect(written.map((f) => f.source)).not.toEqual(expect.arrayContaining(['pluto']));
    for (const { source } of written) expect(['pluto', 'hpd_jurisdiction', 'hpd_registrations', 'hpd_registration_contacts']).not.toContain(source);
    expect(readdirSync(dirChanges).sort()).toEqual([...written.map((f) => f.file), 'truth.csv'].sort());
    let rows = 0;
    for (const source of (Object.keys(OUTPUT_FILES) as SourceKey[]).filter((s) => !['pluto', 'hpd_jurisdiction', 'hpd_registrations', 'hpd_registration_contacts'].includes(s))) {
      const file = OUTPUT_FILES[source];
      const earlier = new Set(lines(dirA, file));
      const expected = lines(dirLater, file).filter((line) => !earlier.has(line));
      const report = written.find((f) => f.source === source);
      expect({ source, lines: report ? lines(dirChanges, file) : [] }).toEqual({ source, lines: expected });
      rows += expected.length;
    }
    expect(changes.eventRows).toBe(rows);
    expect(rows).toBeGreaterThan(0);
    expect(rows).toBeLessThan(report.eventRows / 5);
  });

  it('keeps every integer record id below 2^31, as the real data sets do', () => {
    const ID_COLUMNS: Partial<Record<string, string[]>> = {
      'hpd_violations.csv': ['ViolationID', 'NOVID'],
      'hpd_complaints_and_problems.csv': ['Complaint ID', 'Problem ID', 'Unique Key'],
      'nyc311_service_requests.csv': ['Unique Key'],
      '311_service_requests_2010_2019.csv': ['Unique Key'],
      'dob_violations.csv': ['ISN_DOB_BIS_VIOL'],
      'ecb_violations.csv': ['ISN_DOB_BIS_EXTRACT'],
      'dobjobs.csv': ['Job #'],
      'hpd_litigations.csv': ['LitigationID'],
    };
    let checked = 0;
    for (const [file, columns] of Object.entries(ID_COLUMNS)) {
      const [header = [], ...rows] = readCsv(join(dirA, file));
      for (const at of (columns ?? []).map((column) => header.indexOf(column))) {
        expect(at).toBeGreaterThanOrEqual(0);
        const ids = rows.map((row) => row[at] ?? '').filter((value) => value !== '');
        expect(ids.every((value) => /^\d{1,10}$/.test(value) && Number(value) <= MAX_ID)).toBe(true);
        checked += ids.length;
      }
    }
    expect(checked).toBeGreaterThan(10_000);
    // DOB complaint numbers: digits below 2^31, and some with a letter in second place (`4A28951`)
    const [complaintHeader = [], ...complaints] = readCsv(join(dirA, 'dob_complaints.csv'));
    const numbers = complaints.map((row) => row[complaintHeader.indexOf('Complaint Number')] ?? '');
    const lettered = numbers.filter((value) => /^\d[A-J]\d+$/.test(value));
    expect(numbers.every((value) => (/^\d{1,10}$/.test(value) && Number(value) <= MAX_ID) || /^\d[A-J]\d{1,8}$/.test(value))).toBe(true);
    expect(lettered.length).toBeGreaterThan(0);
    expect(new Set(numbers).size).toBe(numbers.length);
    // a lot never runs out of ids, with room to spare
    expect(report.ids.mostUsedShare).toBeLessThan(0.5);
  });

  it('writes truth.csv with a backtest label 12 months before the as-of date', () => {
    const truth = readCsvObjects(join(dirA, 'truth.csv'));
    expect(truth).toHaveLength(BUILDINGS);
    const labelled = truth.filter((row) => row.serious_12m_after_cut === '1');
    expect(labelled.length).toBeGreaterThan(0);
    expect(labelled.length).toBeLessThan(BUILDINGS / 2);
    for (const row of labelled) expect(row.first_serious_after_cut >= '2025-11-01' && row.first_serious_after_cut <= '2026-11-01').toBe(true);
  });

  it('writes beside each outcome column the probability the generator drew it with, and one per validation cut date', () => {
    const [header] = readCsv(join(dirA, 'truth.csv'));
    expect(header.slice(-5)).toEqual([
      'p_serious_12m_after_cut',
      'p_serious_12m_after_as_of',
      'p_serious_12m_after_2025-11-01',
      'p_serious_12m_after_2024-11-01',
      'p_serious_12m_after_2023-11-02',
    ]);
    const truth = readCsvObjects(join(dirA, 'truth.csv'));
    for (const row of truth) {
      for (const column of header.slice(-5)) expect(Number(row[column])).toBeGreaterThanOrEqual(0);
      for (const column of header.slice(-5)) expect(Number(row[column])).toBeLessThanOrEqual(1);
      // the cut column and the cut date's column are the same window
      expect(row['p_serious_12m_after_2025-11-01']).toBe(row.p_serious_12m_after_cut);
    }
  });
});
