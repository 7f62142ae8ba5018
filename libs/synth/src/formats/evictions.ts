import type { Building } from '../buildings';
import { csvLine } from '../csv';
import { mdy } from '../dates';
import type { Eviction } from '../records';
import { HEADERS } from './headers';
import { rowBuilder } from './row';

const build = rowBuilder(HEADERS.evictions);

/** Executed eviction; BIN/BBL/coordinates missing on a share of rows, as in the published file. */
export function evictionLine(b: Building, e: Eviction): string {
  const located = Number(e.docket) % 10 !== 0;
  return csvLine(
    build({
      'Court Index Number': e.courtIndex,
      'Docket Number ': e.docket,
      'Eviction Address': `${b.houseNumber} ${b.street}`,
      'Eviction Apartment Number': e.apartment,
      'Executed Date': mdy(e.day),
      'Marshal First Name': e.marshal[0],
      'Marshal Last Name': e.marshal[1],
      'Residential/Commercial': 'Residential',
      BOROUGH: b.borough.upper,
      'Eviction Postcode': b.zip,
      Ejectment: 'Not an Ejectment',
      'Eviction/Legal Possession': e.possession ? 'Possession' : 'Eviction',
      Latitude: located ? b.latitude.toFixed(6) : '',
      Longitude: located ? b.longitude.toFixed(6) : '',
      'Community Board': located ? String(b.zone.communityBoard) : '',
      'Council District': located ? String(b.zone.councilDistrict) : '',
      'Census Tract': located ? b.censusTract : '',
      BIN: located ? b.bins[0] : '',
      BBL: located ? b.bbl : '',
      NTA: located ? b.zone.nta : '',
    }),
  );
}
