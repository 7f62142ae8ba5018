import type { Building } from '../buildings';
import { csvLine } from '../csv';
import { mdy } from '../dates';
import type { DobSafetyViolation } from '../records';
import { HEADERS } from './headers';
import { bin, dobCommunityBoard, rowBuilder } from './row';

const build = rowBuilder(HEADERS.dob_safety_violations);

/**
 * A dismissed violation's status word: mostly `Dismissed`, and for one in four (chosen by the violation
 * number) the other closing words of the 2026 vocabulary (docs/sources.md), the publisher's double
 * space included.
 */
const CLOSING_WORDS = ['Disputed Successfully', 'Waived - Pending Dismissal', 'Pending Dismissal', 'Paid  - Pending Dismissal', 'Cured'] as const;

export function closedSafetyStatus(number: string): string {
  let h = 0;
  for (let i = 0; i < number.length; i++) h = (h * 31 + number.charCodeAt(i)) >>> 0;
  const i = h % 20;
  return i < CLOSING_WORDS.length ? CLOSING_WORDS[i] : 'Dismissed';
}

export function dobSafetyViolationLine(b: Building, v: DobSafetyViolation, asOf: number): string {
  return csvLine(
    build({
      BIN: bin(b, v.binIndex),
      'Violation Issue Date': mdy(v.day),
      'Violation Number': v.number,
      'Violation Type': v.type,
      'Violation Remarks': v.remarks,
      'Violation Status': v.dismissDay <= asOf ? closedSafetyStatus(v.number) : 'Active',
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
