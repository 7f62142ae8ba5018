import type { Building } from '../buildings';
import { csvLine } from '../csv';
import { monthYear } from '../dates';
import type { TaxLien } from '../records';
import { HEADERS } from './headers';
import { dobCommunityBoard, rowBuilder } from './row';

const build = rowBuilder(HEADERS.dof_tax_liens);

/** Tax lien sale list row: Month as `MM/YYYY`, borough as a digit, no BBL column. */
export function taxLienLine(b: Building, t: TaxLien): string {
  return csvLine(
    build({
      Month: monthYear(t.day),
      Cycle: t.cycle,
      Borough: String(b.borough.code),
      'Block ': String(b.block),
      Lot: String(b.lot),
      'Tax Class Code': b.units <= 3 ? '1' : '2',
      'Building Class': b.buildingClass,
      'Community Board': dobCommunityBoard(b),
      'Council District': String(b.zone.councilDistrict),
      'House Number': b.houseNumber,
      'Street Name': b.street,
      'Zip Code': b.zip,
      'Water Debt Only': t.waterDebtOnly ? 'YES' : 'NO',
    }),
  );
}
