import type { Building } from '../buildings';
import { csvLine } from '../csv';
import { mdy } from '../dates';
import type { FdnyVacate } from '../records';
import { HEADERS } from './headers';
import { bin, mdyIfBy, rowBuilder } from './row';

const build = rowBuilder(HEADERS.fdny_vacates);

export function fdnyVacateLine(b: Building, v: FdnyVacate, asOf: number): string {
  return csvLine(
    build({
      // the disposition, not the reason: empty while the order is in force (docs/sources.md)
      description: mdyIfBy(v.statusChangeDay, asOf) === '' ? '' : 'Rescinded',
      vac_date: mdy(v.day),
      status_change_date: mdyIfBy(v.statusChangeDay, asOf),
      bin: bin(b, v.binIndex),
      bbl: b.bbl,
      house_number: b.houseNumber,
      street_name: b.street,
      borough: b.borough.upper,
      postcode: b.zip,
    }),
  );
}
