import { createWriteStream, readFileSync } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';

export const SHARED_FIXTURES = path.resolve(__dirname, '../../../../../shared/fixtures/nyc-open-data');

/**
 * Writes an HPD violations file in the published format with `rows` violations spread over the given
 * BBLs, cloned from the real fixture rows (new ids, BBLs and classes).
 */
export async function writeViolationsFile(file: string, bbls: string[], rows: number): Promise<void> {
  const records = parse(readFileSync(path.join(SHARED_FIXTURES, 'hpd_violations.csv')), { bom: true }) as string[][];
  const [header, ...templates] = records;
  const col = (name: string) => header.indexOf(name);
  const out = createWriteStream(file);
  out.write(stringify([header]));
  for (let i = 0; i < rows; i++) {
    const row = [...templates[i % templates.length]];
    const bbl = bbls[i % bbls.length];
    row[col('ViolationID')] = String(90_000_000 + i);
    row[col('BBL')] = bbl;
    row[col('BoroID')] = bbl[0];
    row[col('Block')] = String(Number(bbl.slice(1, 6)));
    row[col('Lot')] = String(Number(bbl.slice(6)));
    row[col('Class')] = ['A', 'B', 'C'][i % 3];
    if (!out.write(stringify([row]))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}
