import type { Building } from '../buildings';
import { csvLine } from '../csv';
import { mdyTime } from '../dates';
import type { RodentInspection } from '../records';
import { HEADERS } from './headers';
import { rowBuilder } from './row';

const build = rowBuilder(HEADERS.dohmh_rodents);

/**
 * The letter sent after a failed inspection (the Commissioner's Order to Abate) and what the
 * inspector saw, in the words of the 2026 field list (docs/sources.md, rodent inspections).
 */
const LETTER_TYPES: Readonly<Record<string, string>> = { 'Failed for Rat Activity': 'COTA', 'Failed for Other Reason': 'COTA' };
const OBSERVATIONS: Readonly<Record<string, string>> = { 'Failed for Rat Activity': 'Burrows', 'Failed for Other Reason': 'Harborage' };

/** Rodent inspection in the 2026 layout (no ticket id, no JOB_PROGRESS): BBL often blank (BORO_CODE + BLOCK padded to 5 + LOT padded to 4), some (0,0) coordinates. */
export function rodentLine(b: Building, r: RodentInspection): string {
  const lat = r.zeroCoordinates ? '0' : b.latitude.toFixed(12);
  const lon = r.zeroCoordinates ? '0' : b.longitude.toFixed(12);
  return csvLine(
    build({
      INSPECTION_TYPE: r.type,
      JOB_ID: r.jobId,
      BBL: r.withBbl ? b.bbl : '',
      BORO_CODE: String(b.borough.code),
      BLOCK: String(b.block).padStart(5, '0'),
      LOT: String(b.lot).padStart(4, '0'),
      HOUSE_NUMBER: b.houseNumber,
      STREET_NAME: b.street,
      ZIP_CODE: b.zip,
      LATITUDE: lat,
      LONGITUDE: lon,
      BOROUGH: b.borough.title,
      INSPECTION_DATE: mdyTime(r.day, r.second),
      RESULT: r.result,
      LETTER_TYPE: LETTER_TYPES[r.result] ?? '',
      OBSERVATIONS: OBSERVATIONS[r.result] ?? '',
      LOCATION: r.zeroCoordinates ? '(0.0, 0.0)' : `(${lat}, ${lon})`,
      'COMMUNITY BOARD': String(b.zone.communityBoard),
      'COUNCIL DISTRICT': String(b.zone.councilDistrict),
      'CENSUS TRACT': b.censusTract,
      BIN: r.withBbl ? b.bins[0] : '',
      NTA: r.withBbl ? b.zone.nta : '',
    }),
  );
}
