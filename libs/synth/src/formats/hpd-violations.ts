import type { Building } from '../buildings';
import { csvField, csvLine } from '../csv';
import { mdy } from '../dates';
import { NEVER, type HpdViolation } from '../records';
import { HEADERS } from './headers';
import { bin, fixed, hpdBuildingId, mdyIfBy, rowBuilder } from './row';

const build = rowBuilder(HEADERS.hpd_violations);

/** Status of a violation on the as-of date (HPD changes it in place, without a closing date column). */
function statusAt(v: HpdViolation, asOf: number): { id: string; text: string; date: number; open: boolean } {
  const novIssued = v.day + 2;
  if (v.closeDay <= asOf) {
    return v.dismissed ? { id: '9', text: 'VIOLATION DISMISSED', date: v.closeDay, open: false } : { id: '19', text: 'VIOLATION CLOSED', date: v.closeDay, open: false };
  }
  if (v.certifiedDay !== NEVER && v.certifiedDay <= asOf) return { id: '28', text: 'INVALID CERTIFICATION', date: v.certifiedDay, open: true };
  return { id: '2', text: 'NOV SENT OUT', date: novIssued, open: true };
}

export function hpdViolationLine(b: Building, v: HpdViolation, asOf: number): string {
  const status = statusAt(v, asOf);
  const novIssued = v.day + 2;
  const correctBy = novIssued + (v.code.cls === 'C' ? 1 : v.code.cls === 'B' ? 35 : 95);
  const description = v.code.inUnit ? `${v.code.text} IN THE ${v.apartment === 'BSMT' ? 'BASEMENT' : `APARTMENT ${v.apartment}`}, ${v.story} STORY` : v.code.text;
  const row = build({
    ViolationID: String(v.id),
    BuildingID: hpdBuildingId(b, v.binIndex),
    RegistrationID: String(b.registrationId),
    BoroID: String(b.borough.code),
    Borough: b.borough.upper,
    HouseNumber: b.houseNumber,
    LowHouseNumber: b.lowHouseNumber,
    HighHouseNumber: b.highHouseNumber,
    StreetName: b.street,
    StreetCode: b.streetCode,
    Postcode: b.zip,
    Apartment: v.code.inUnit ? v.apartment : '',
    Story: v.code.inUnit ? v.story : 'All Stories',
    Block: String(b.block),
    Lot: String(b.lot),
    Class: v.code.cls,
    InspectionDate: mdy(v.day),
    ApprovedDate: mdy(v.day + 1),
    OriginalCertifyByDate: mdy(correctBy + 14),
    OriginalCorrectByDate: mdy(correctBy),
    CertifiedDate: mdyIfBy(v.certifiedDay, asOf),
    OrderNumber: v.code.order,
    NOVID: String(v.novId),
    NOVDescription: description,
    NOVIssuedDate: mdy(novIssued),
    CurrentStatusID: status.id,
    CurrentStatus: status.text,
    CurrentStatusDate: mdy(status.date),
    NovType: 'Original',
    ViolationStatus: status.open ? 'Open' : 'Close',
    RentImpairing: v.code.rentImpairing ? 'Y' : 'N',
    Latitude: fixed(b.latitude, 6),
    Longitude: fixed(b.longitude, 6),
    CommunityBoard: String(b.zone.communityBoard),
    CouncilDistrict: String(b.zone.councilDistrict),
    CensusTract: b.censusTract,
    BIN: bin(b, v.binIndex),
    BBL: b.bbl,
    NTA: b.zone.nta,
  });
  if (!v.malformed) return csvLine(row);
  // the broken export: the description's comma left unquoted, one column too many
  return row.map((field) => (field === description ? `${field}, SEE ATTACHED` : csvField(field))).join(',') + '\n';
}
