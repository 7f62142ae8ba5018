import type { Building } from '../buildings';
import { csvLine } from '../csv';
import { mdy } from '../dates';
import type { JobFiling } from '../records';
import { HEADERS } from './headers';
import { bin, dobCommunityBoard, mdyIfBy, rowBuilder } from './row';

const build = rowBuilder(HEADERS.dob_job_filings);

function jobStatus(j: JobFiling, asOf: number): [string, string, number] {
  if (j.signoffDay <= asOf) return ['X', 'SIGNED OFF', j.signoffDay];
  if (j.permitDay <= asOf) return ['R', 'PERMIT ISSUED - ENTIRE JOB/WORK', j.permitDay];
  return ['D', 'APPLICATION PROCESSED - ENTIRE', j.day];
}

/** DOB (BIS) job filing: dates MM/DD/YYYY, BLOCK/LOT padded to 5, cost as `$37300.00`. */
export function dobJobLine(b: Building, j: JobFiling, asOf: number): string {
  const [status, description, statusDay] = jobStatus(j, asOf);
  return csvLine(
    build({
      JOB_S1_NO: String(j.jobNumber % 10000000),
      'Job #': String(j.jobNumber),
      'Doc #': '01',
      Borough: b.borough.upper,
      'House #': b.houseNumber,
      'Street Name': b.street,
      Block: String(b.block).padStart(5, '0'),
      Lot: String(b.lot).padStart(5, '0'),
      'Bin #': bin(b, 0),
      TOTAL_CONSTRUCTION_FLOOR_AREA: '0',
      'Job Type': j.jobType,
      'Job Status': status,
      'Job Status Descrp': description,
      'Latest Action Date': mdy(statusDay),
      'Building Type': b.units <= 3 ? '1-2-3 FAMILY' : 'OTHERS',
      'Community - Board': dobCommunityBoard(b),
      Cluster: 'N',
      Landmarked: 'N',
      'Adult Estab': 'N',
      'Loft Board': 'N',
      'Little e': 'N',
      'eFiling Filed': 'Y',
      Plumbing: j.description.includes('PLUMBING') ? 'X' : '',
      Boiler: j.description.includes('BOILER') ? 'X' : '',
      Other: 'X',
      'Other Description': j.description.slice(0, 20),
      WITHDRAWAL_FLAG: '0',
      "Applicant's First Name": j.applicantFirst,
      "Applicant's Last Name": j.applicantLast,
      'Applicant Professional Title': j.license.endsWith('1') ? 'RA' : 'PE',
      'Applicant License #': j.license,
      'Professional Cert': 'Y',
      'Pre- Filing Date': mdy(j.day),
      Paid: mdy(j.day),
      'Fully Paid': mdy(j.day),
      Assigned: mdy(j.day + 1),
      Approved: mdyIfBy(j.permitDay - 1, asOf),
      'Fully Permitted': mdyIfBy(j.permitDay, asOf),
      SIGNOFF_DATE: mdyIfBy(j.signoffDay, asOf),
      SPECIAL_ACTION_STATUS: 'N',
      'Initial Cost': `$${j.initialCost}.00`,
      'Total Est. Fee': `$${(Math.max(100, j.initialCost * 0.0105)).toFixed(2)}`,
      'Fee Status': 'STANDARD',
      'Existing Zoning Sqft': '0',
      'Proposed Zoning Sqft': '0',
      'Enlargement SQ Footage': '0',
      'Street Frontage': '0',
      'ExistingNo. of Stories': String(b.stories),
      'Proposed No. of Stories': String(b.stories),
      'Existing Height': String(b.stories * 10 + 2),
      'Proposed Height': String(b.stories * 10 + 2),
      'Existing Dwelling Units': String(b.units),
      'Proposed Dwelling Units': String(b.units),
      'Existing Occupancy': b.units <= 2 ? 'R-3' : 'R-2',
      'Proposed Occupancy': b.units <= 2 ? 'R-3' : 'R-2',
      'Zoning Dist1': b.units <= 2 ? 'R3A' : 'R6',
      'Owner Type': b.owner.kind === 'corporate' ? 'CORPORATION' : 'INDIVIDUAL',
      'Non-Profit': 'N',
      "Owner's First Name": b.owner.officerFirst,
      "Owner's Last Name": b.owner.officerLast,
      "Owner's Business Name": b.owner.kind === 'corporate' ? b.owner.name : 'N/A',
      BUILDING_CLASS: b.buildingClass,
      'Job Description': j.description,
      JOB_NO_GOOD_COUNT: '0',
      LATITUDE: b.latitude.toFixed(6),
      LONGITUDE: b.longitude.toFixed(6),
      'COUNCIL DISTRICT': String(b.zone.councilDistrict),
      'CENSUS TRACT': b.censusTract,
      NTA: b.zone.nta,
      BBL: b.bbl,
      DOBRunDate: mdy(Math.min(asOf, statusDay + 1)),
    }),
  );
}
