import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatBbl } from '@bhis/domain';
import { PUBLIC_HOUSING_MIN_UNITS } from './buildings';
import { OUTPUT_FILES } from './formats/files';
import type { SourceKey } from './formats/headers';
import { generateCity } from './generate-city';
import { readCsv, readCsvObjects } from './testing/read-csv';

/** The demo city's size and seed: large enough for a few lots of 50+ units to be public housing (5 years of history keep it quick). */
const BUILDINGS = 2000;
const SEED = 'demo';
const YEARS = 5;

/** Files of the records HPD keeps of the buildings it inspects and enforces at (and the tax lien list, never on public property). */
const NOT_AT_PUBLIC_HOUSING: readonly SourceKey[] = [
  'hpd_violations', 'hpd_complaints', 'hpd_registrations', 'hpd_litigations', 'hpd_vacate_orders', 'hpd_aep',
  'hpd_underlying_conditions', 'hpd_omo_charges', 'hpd_hwo_charges', 'hpd_bedbugs', 'dof_tax_liens',
];

/** The lots a file's rows name: by BBL, BIN or borough/block/lot, whichever the file carries. */
function lotsNamed(file: string, bins: ReadonlyMap<string, string>): Set<string> {
  const [header, ...rows] = readCsv(file);
  const at = (...names: string[]) => header.findIndex((column) => names.includes(column.trim()));
  const bbl = at('BBL');
  const bin = at('BIN');
  const [boro, block, lot] = [at('BoroID', 'Boro ID', 'Borough'), at('Block'), at('Lot')];
  const out = new Set<string>();
  for (const row of rows) {
    if (bbl >= 0 && row[bbl]) out.add(row[bbl]);
    if (bin >= 0 && bins.has(row[bin])) out.add(bins.get(row[bin]) as string);
    if (boro >= 0 && block >= 0 && lot >= 0) {
      const code = /^\d$/.test(row[boro]) ? Number(row[boro]) : ['MANHATTAN', 'BRONX', 'BROOKLYN', 'QUEENS', 'STATEN ISLAND'].indexOf(row[boro].toUpperCase()) + 1;
      const parsed = formatBbl(code, Number(row[block]), Number(row[lot]));
      if (parsed) out.add(parsed);
    }
  }
  return out;
}

describe('public housing in a generated city', () => {
  const dir = mkdtempSync(join(tmpdir(), 'synth-public-housing-'));
  let truth: Record<string, string>[];
  let publicHousing: Set<string>;
  /** BIN -> BBL, from HPD jurisdiction */
  const bins = new Map<string, string>();

  beforeAll(async () => {
    await generateCity({ buildings: BUILDINGS, seed: SEED, outDir: dir, years: YEARS });
    truth = readCsvObjects(join(dir, 'truth.csv'));
    publicHousing = new Set(truth.filter((row) => row.public_housing === '1').map((row) => row.bbl));
    for (const row of readCsvObjects(join(dir, OUTPUT_FILES.hpd_jurisdiction))) {
      const bbl = formatBbl(Number(row.BoroID), Number(row.Block), Number(row.Lot));
      if (bbl && row.BIN) bins.set(row.BIN, bbl);
    }
  }, 120_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('marks a few large lots as public housing in truth.csv, before the outcome probabilities', () => {
    const header = readCsv(join(dir, 'truth.csv'))[0];
    expect(header[header.indexOf('public_housing') + 1]).toBe('p_serious_12m_after_cut');
    expect(header.slice(0, 7)).toEqual(['bbl', 'borough', 'units', 'size_class', 'owner_id', 'owner_kind', 'trajectory']);
    expect(new Set(truth.map((row) => row.public_housing))).toEqual(new Set(['0', '1']));
    const large = truth.filter((row) => Number(row.units) >= PUBLIC_HOUSING_MIN_UNITS);
    expect(publicHousing.size).toBeGreaterThanOrEqual(2);
    expect(publicHousing.size / large.length).toBeLessThan(0.1);
    for (const row of truth.filter((r) => r.public_housing === '1')) {
      expect({ units: Number(row.units) >= PUBLIC_HOUSING_MIN_UNITS, kind: row.owner_kind }).toEqual({ units: true, kind: 'public' });
    }
  });

  it('lists them under HPD jurisdiction as NYCHA without a registration, and in PLUTO as owned by the housing authority', () => {
    const jurisdiction = readCsvObjects(join(dir, OUTPUT_FILES.hpd_jurisdiction)).filter((row) => row.RecordStatus === 'Active');
    const nycha = jurisdiction.filter((row) => row.ManagementProgram === 'NYCHA');
    expect(new Set(nycha.map((row) => formatBbl(Number(row.BoroID), Number(row.Block), Number(row.Lot))))).toEqual(publicHousing);
    expect(nycha.every((row) => row.RegistrationID === '0')).toBe(true);
    expect(jurisdiction.filter((row) => row.ManagementProgram !== 'NYCHA').every((row) => row.ManagementProgram === 'PVT')).toBe(true);

    const pluto = readCsvObjects(join(dir, OUTPUT_FILES.pluto));
    const authority = pluto.filter((row) => row.ownername === 'NEW YORK CITY HOUSING AUTHORITY');
    expect(new Set(authority.map((row) => row.BBL))).toEqual(publicHousing);
  });

  it('writes no HPD complaint, violation, litigation, repair, program, vacate or registration record for them', () => {
    for (const source of NOT_AT_PUBLIC_HOUSING) {
      const named = lotsNamed(join(dir, OUTPUT_FILES[source]), bins);
      expect({ source, named: named.size > 0 }).toEqual({ source, named: true });
      expect({ source, publicHousing: [...publicHousing].filter((bbl) => named.has(bbl)) }).toEqual({ source, publicHousing: [] });
    }
  });

  it('still writes their 311 requests, DOB and ECB records and rodent inspections, from their hidden condition', () => {
    const nyc311 = readCsvObjects(join(dir, OUTPUT_FILES.nyc311)).filter((row) => publicHousing.has(row.BBL));
    expect(nyc311.length).toBeGreaterThan(0);
    // 311 refers the housing complaints to the housing authority: no HPD inspection result
    expect(nyc311.filter((row) => row.Agency === 'HPD' && row.Status === 'Closed').every((row) => /referred to NYCHA/.test(row['Resolution Description']))).toBe(true);
    const withRecords = (source: SourceKey) => [...publicHousing].filter((bbl) => lotsNamed(join(dir, OUTPUT_FILES[source]), bins).has(bbl)).length;
    expect(withRecords('dob_violations') + withRecords('dob_ecb_violations') + withRecords('dob_complaints')).toBeGreaterThan(0);
  });
});
