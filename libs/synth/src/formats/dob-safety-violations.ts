import type { Building } from '../buildings';
import { csvLine } from '../csv';
import { mdy } from '../dates';
import type { DobSafetyViolation } from '../records';
import { HEADERS } from './headers';
import { bin, dobCommunityBoard, rowBuilder } from './row';

const build = rowBuilder(HEADERS.dob_safety_violations);

export function dobSafetyViolationLine(b: Building, v: DobSafetyViolation, asOf: number): string {
  return csvLine(
    build({
      BIN: bin(b, v.binIndex),
      'Violation Issue Date': mdy(v.day),
      'Violation Number': v.number,
      'Violation Type': v.type,
      'Violation Remarks': v.remarks,
      'Violation Status': v.dismissDay <= asOf ? 'Dismissed' : 'Active',
      'Device Number': v.deviceNumber,
      'Device Type': v.deviceType,
      'Cycle End Date': mdy(v.cycleEndDay),
      Borough: b.borough.title,
      Block: String(b.block),
      Lot: String(b.lot),
      'House Number': b.houseNumber,
      Street: b.street,
      City: 'New York',
      State: 'New York',
      Postcode: b.zip,
      Latitude: b.latitude.toFixed(6),
      Longitude: b.longitude.toFixed(6),
      'Community Board': dobCommunityBoard(b),
      'Council District': String(b.zone.councilDistrict),
      BBL: b.bbl,
      'Census Tract (2020)': b.censusTract,
      'Neighborhood Tabulation Area (NTA) (2020)': b.zone.nta,
    }),
  );
}
