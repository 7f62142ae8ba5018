import type { Building } from '../buildings';
import { csvLine } from '../csv';
import { mdyTime } from '../dates';
import type { JobFiling } from '../records';
import { HEADERS } from './headers';
import { bin, dobCommunityBoard, rowBuilder } from './row';

const build = rowBuilder(HEADERS.dob_now_job_filings);

/** DOB NOW: Build job filing (dates with time of day). */
export function dobNowJobLine(b: Building, j: JobFiling, asOf: number): string {
  const permitted = j.permitDay <= asOf;
  const signedOff = j.signoffDay <= asOf;
  const prefix = b.borough.abbrev === 'MN' ? 'M' : b.borough.abbrev === 'BX' ? 'X' : b.borough.abbrev === 'BK' ? 'B' : b.borough.abbrev === 'QN' ? 'Q' : 'S';
  return csvLine(
    build({
      'Job Filing Number': `${prefix}${String(j.jobNumber % 100000000).padStart(8, '0')}-I1`,
      'Filing Status': signedOff ? 'LOC Issued' : permitted ? 'Permit Entire' : 'Approved',
      'House No': b.houseNumber,
      'Street Name': b.street,
      Borough: b.borough.upper,
      Block: String(b.block),
      LOT: String(b.lot),
      Bin: bin(b, j.binIndex),
      'Commmunity - Board': dobCommunityBoard(b),
      'Applicant Professional Title': j.license.endsWith('1') ? 'RA' : 'PE',
      'Applicant License #': j.license,
      'Applicant First Name': j.applicantFirst,
      'Applicant Last Name': j.applicantLast,
      "Owner's Business Name": b.owner.kind === 'corporate' ? b.owner.name : '',
      'Initial Cost': String(j.initialCost),
      'Review Building Code': '2014',
      'Building Type': 'Other',
      'Existing Stories': String(b.stories),
      'Existing Dwelling Units': String(b.units),
      'Proposed No of Stories': String(b.stories),
      'Proposed Dwelling Units': String(b.units),
      'Filing Date': mdyTime(j.day, 0),
      'Current Status Date': mdyTime(signedOff ? j.signoffDay : permitted ? j.permitDay : j.day, 12 * 3600 + (j.jobNumber % 3600)),
      'First Permit Date': permitted ? mdyTime(j.permitDay, 0) : '',
      'General Construction (Work Type)': 'YES',
      'Job Type': j.jobType === 'A1' ? 'Alteration CO' : 'Alteration',
      Latitude: b.latitude.toFixed(6),
      Longitude: b.longitude.toFixed(6),
      Postcode: b.zip,
      'Council District': String(b.zone.councilDistrict),
      'Census Tract': b.censusTract,
      BBL: b.bbl,
      NTA: b.zone.nta,
      'Approved Date': mdyTime(Math.min(j.permitDay - 1, asOf), 10 * 3600),
      'Signoff Date': signedOff ? mdyTime(j.signoffDay, 0) : '',
      'Owner First Name': b.owner.officerFirst,
      'Owner Last Name': b.owner.officerLast,
      'Owner Type': b.owner.kind === 'corporate' ? 'Corporation' : 'Individual',
      'Job Description': j.description,
      'Filing Review Type': 'Standard Plan Examination',
    }),
  );
}
