import type { Building } from '../buildings';
import { csvLine } from '../csv';
import { dmyUnpadded, mdyUnpadded, ymdOf } from '../dates';
import type { DobVacate } from '../records';
import { HEADERS } from './headers';
import { rowBuilder } from './row';

const build = rowBuilder(HEADERS.dob_vacate_orders);

/**
 * DOB vacate order (FOIL file): `M/D/YYYY` dates; this hand-kept file is the one that also holds
 * day-first dates (`15/4/2024`), written when the day is above 12 so that the reading is unambiguous.
 */
export function dobVacateLine(b: Building, v: DobVacate): string {
  const { year, day } = ymdOf(v.day);
  const date = v.dayFirst && day > 12 ? dmyUnpadded(v.day) : mdyUnpadded(v.day);
  return csvLine(
    build({
      'Last Disposition Date (date of issuance of vacate)': date,
      'Last Disposition Year': String(year),
      'House Number': b.houseNumber,
      'Street Name': b.street,
      'Borough Name': b.borough.title,
      'ZIP Code': b.zip,
      Block: String(b.block),
      Lot: String(b.lot),
      'Complaint  Category Description': `${v.category.padEnd(74, ' ')}+`,
      'Last Disposition Code Description': `${(v.full ? 'FULL VACATE ORDER ISSUED' : 'PARTIAL VACATE ORDER ISSUED').padEnd(73, ' ')}${v.full ? 'F' : 'P'}`,
    }),
  );
}
