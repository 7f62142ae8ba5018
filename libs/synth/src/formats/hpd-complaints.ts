import type { Building } from '../buildings';
import { CLOSED_NO_ACCESS, CLOSED_NO_VIOLATION, CLOSED_WITH_VIOLATION, HEAT_RESTORED, OPEN_DESCRIPTION } from '../catalog';
import { csvLine } from '../csv';
import { mdy } from '../dates';
import type { HpdComplaint, HpdProblem } from '../records';
import { HEADERS } from './headers';
import { bin, hpdBuildingId, rowBuilder } from './row';

const build = rowBuilder(HEADERS.hpd_complaints);

function statusDescription(problem: HpdProblem, open: boolean): string {
  if (open) return OPEN_DESCRIPTION;
  switch (problem.outcome) {
    case 'violation':
      return CLOSED_WITH_VIOLATION;
    case 'no_access':
      return CLOSED_NO_ACCESS;
    case 'corrected':
      return HEAT_RESTORED;
    default:
      return CLOSED_NO_VIOLATION;
  }
}

/** One row per problem of the complaint (count complaints by Complaint ID). */
export function hpdComplaintLines(b: Building, c: HpdComplaint, asOf: number): string {
  const open = c.closeDay > asOf;
  let out = '';
  for (const p of c.problems) {
    const problemClose = c.closeDay - 1;
    out += csvLine(
      build({
        'Received Date': mdy(c.day),
        'Problem ID': String(p.problemId),
        'Complaint ID': String(c.complaintId),
        'Building ID': hpdBuildingId(b, c.binIndex),
        Borough: b.borough.upper,
        'House Number': b.houseNumber,
        'Street Name': b.street,
        'Post Code': b.zip,
        Block: String(b.block),
        Lot: String(b.lot),
        Apartment: c.apartment,
        'Community Board': String(b.zone.communityBoard),
        'Unit Type': p.problem.unitType,
        'Space Type': p.problem.spaceType,
        Type: p.problem.type,
        'Major Category': p.problem.major,
        'Minor Category': p.problem.minor,
        'Problem Code': p.problem.code,
        'Complaint Status': open ? 'OPEN' : 'CLOSE',
        'Complaint Status Date': mdy(open ? c.day : c.closeDay),
        'Problem Status': open ? 'OPEN' : 'CLOSE',
        'Problem Status Date': mdy(open ? c.day : Math.max(c.day, problemClose)),
        'Status Description': statusDescription(p, open),
        'Problem Duplicate Flag': 'N',
        'Complaint Anonymous Flag': c.anonymous ? 'Y' : 'N',
        'Unique Key': String(p.uniqueKey),
        Latitude: b.latitude.toFixed(15),
        Longitude: b.longitude.toFixed(15),
        'Council District': String(b.zone.councilDistrict),
        'Census Tract': b.censusTract,
        BIN: bin(b, c.binIndex),
        BBL: b.bbl,
        NTA: b.zone.nta,
      }),
    );
  }
  return out;
}
