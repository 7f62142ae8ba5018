import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { closestSource } from './closest-source';
import { SHARED_FIXTURES } from './testing/fixtures';

const headerOf = (file: string): string[] => (parse(readFileSync(path.join(SHARED_FIXTURES, file), 'utf8'), { to_line: 1 }) as string[][])[0];

/** A wrong file is matched, by its real header (the city's exports in ../shared/fixtures), to the source it is. */
describe('the source a header is nearest to', () => {
  it.each([
    ['hpd_violations.csv', 'hpd_violations'],
    ['hpd_litigations.csv', 'hpd_litigations'],
    ['dob_complaints.csv', 'dob_complaints'],
    ['pluto_latest.csv', 'pluto'],
    ['hpd_registrations.csv', 'hpd_registrations'],
  ])('%s is a file of %s', (file, source) => {
    expect(closestSource(headerOf(file))).toEqual(expect.objectContaining({ source }));
  });

  it('names no source for a header that is no source\'s', () => {
    expect(closestSource(['id', 'name', 'price', 'colour'])).toBeNull();
    expect(closestSource([])).toBeNull();
  });
});
