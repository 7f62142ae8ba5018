import { readdirSync } from 'node:fs';
import { primaryDatasetId } from './definition';
import { getSource, SOURCES, sourceForFile, sourceKeyForFile } from './registry';
import { SHARED_FIXTURES } from './testing/fixtures';

describe('source registry', () => {
  it('declares the 25 sources, building universe first', () => {
    expect(SOURCES).toHaveLength(25);
    expect(new Set(SOURCES.map((source) => source.key)).size).toBe(25);
    const order = SOURCES.map((source) => source.key);
    expect(order.slice(0, 2)).toEqual(['pluto', 'hpd_jurisdiction']);
    expect(order.indexOf('hpd_registrations')).toBeLessThan(order.indexOf('hpd_registration_contacts'));
  });

  it('builds every URL from the dataset id', () => {
    const violations = getSource('hpd_violations').parts[0];
    expect(violations.urls).toEqual({
      csv: 'https://data.cityofnewyork.us/api/views/wvxf-dwi5/rows.csv?accessType=DOWNLOAD',
      json: 'https://data.cityofnewyork.us/resource/wvxf-dwi5.json',
      metadata: 'https://data.cityofnewyork.us/api/views/wvxf-dwi5.json',
      page: 'https://data.cityofnewyork.us/d/wvxf-dwi5',
    });
    expect(getSource('dob_vacate_orders').parts[0].urls).toBeNull();
    expect(getSource('hpd_emergency_repairs').parts.map((part) => part.datasetId)).toEqual(['mdbu-nrqn', 'sbnd-xujn']);
    expect(primaryDatasetId(getSource('evictions'))).toBe('6z8x-wfk4');
  });

  it('recognises every fixture file of the 25 sources by name', () => {
    const unclaimed = readdirSync(SHARED_FIXTURES).filter((name) => !sourceForFile(name));
    expect(unclaimed.sort()).toEqual(['ecb_violations_invalid_header.csv', 'oath_hearings.csv']);
    expect(sourceKeyForFile('/data/in/HPD_HWO_CHARGES.csv')).toBe('hpd_emergency_repairs');
    expect(sourceForFile('marshal_evictions_all.csv')?.part.part).toBe('marshal_compiled');
    expect(sourceKeyForFile('unknown.csv')).toBeNull();
  });

  it('rejects unknown keys with the list of known ones', () => {
    expect(() => getSource('nope')).toThrow(/unknown source "nope" \(known: pluto, hpd_jurisdiction/);
  });
});
