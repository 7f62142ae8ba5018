import type { Building } from '../buildings';
import { csvLine } from '../csv';
import { dayOf, mdyTime } from '../dates';
import type { Nyc311Request } from '../records';
import { HEADERS } from './headers';
import { rowBuilder } from './row';

const build = rowBuilder(HEADERS.nyc311);
const buildOlder = rowBuilder(HEADERS.nyc311_2010_2019);

/** The first day of the 2020-to-present data set: earlier requests are in the 2010-2019 set. */
export const NYC311_CURRENT_FROM = dayOf(2020, 1, 1);

/** A current-layout row in the older layout: the Problem columns under their old names, no added columns. */
function older(values: Record<string, string>): string[] {
  const { 'Problem (formerly Complaint Type)': type, 'Problem Detail (formerly Descriptor)': descriptor, 'Council District': _district, ...rest } = values;
  return buildOlder({ ...rest, 'Complaint Type': type, Descriptor: descriptor });
}

const RESOLUTIONS: Readonly<Record<string, string>> = {
  violation: 'The Department of Housing Preservation and Development inspected the following conditions. Violations were issued. Information about specific violations is available at www.nyc.gov/hpd.',
  no_violation: 'The Department of Housing Preservation and Development inspected the following conditions. No violations were issued. The complaint has been closed.',
  no_access: 'The Department of Housing Preservation and Development was not able to gain access to inspect the following conditions. The complaint has been closed. If the condition still exists, please file a new complaint.',
  corrected: 'The Department of Housing Preservation and Development contacted a tenant in the building and verified that the following conditions were corrected. The complaint has been closed.',
  referred_to_nycha: 'This building is managed by the New York City Housing Authority (NYCHA). Your complaint has been referred to NYCHA.',
  other: 'The Department reviewed this complaint and closed it.',
};

/**
 * 311 request; created and closed as `MM/DD/YYYY hh:mm:ss AM`; BBL is the only lot key. Requests
 * before 2020 are written in the layout of the 2010-2019 data set.
 */
export function nyc311Line(b: Building, r: Nyc311Request, asOf: number): string {
  const closed = r.closeDay <= asOf;
  const bbl = r.bblMode === 'blank' ? '' : r.bblMode === 'borough0' ? `0${b.bbl.slice(1)}` : b.bbl;
  const address = `${b.houseNumber} ${b.street}`;
  const values: Record<string, string> = {
      'Unique Key': String(r.uniqueKey),
      'Created Date': mdyTime(r.day, r.second),
      'Closed Date': closed ? mdyTime(r.closeDay, r.closeSecond) : '',
      Agency: r.agency,
      'Agency Name': r.agencyName,
      'Problem (formerly Complaint Type)': r.complaintType,
      'Problem Detail (formerly Descriptor)': r.descriptor,
      'Location Type': 'RESIDENTIAL BUILDING',
      'Incident Zip': b.zip,
      'Incident Address': address,
      'Street Name': b.street,
      'Address Type': 'ADDRESS',
      City: b.borough.code === 1 ? 'NEW YORK' : b.borough.upper,
      'Facility Type': 'N/A',
      Status: closed ? 'Closed' : 'Open',
      'Resolution Description': closed ? RESOLUTIONS[r.resolution] ?? RESOLUTIONS.other : '',
      'Resolution Action Updated Date': closed ? mdyTime(r.closeDay, r.closeSecond) : mdyTime(r.day, r.second),
      'Community Board': `${String(b.zone.communityBoard).padStart(2, '0')} ${b.borough.upper}`,
      'Council District': String(b.zone.councilDistrict),
      BBL: bbl,
      Borough: b.borough.upper,
      'X Coordinate (State Plane)': String(Math.round(913000 + (b.longitude + 74.26) * 260000)),
      'Y Coordinate (State Plane)': String(Math.round(120000 + (b.latitude - 40.49) * 364000)),
      'Open Data Channel Type': r.channel,
      'Park Facility Name': 'Unspecified',
      'Park Borough': b.borough.upper,
      Latitude: b.latitude.toFixed(7),
      Longitude: b.longitude.toFixed(7),
      Location: `(${b.latitude.toFixed(7)}, ${b.longitude.toFixed(7)})`,
  };
  return csvLine(r.day < NYC311_CURRENT_FROM ? older(values) : build(values));
}
