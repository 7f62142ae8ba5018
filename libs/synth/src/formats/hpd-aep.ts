import type { Building } from '../buildings';
import { csvLine } from '../csv';
import { mdy } from '../dates';
import type { AepEntry } from '../records';
import { HEADERS } from './headers';
import { rowBuilder } from './row';

const build = rowBuilder(HEADERS.hpd_aep);

export function hpdAepLine(b: Building, a: AepEntry, asOf: number): string {
  const discharged = a.dischargeDay <= asOf;
  return csvLine(
    build({
      BUILDING_ID: String(b.hpdBuildingIds[0]),
      BOROUGH: b.borough.title,
      NUMBER: b.houseNumber,
      STREET: b.street,
      TOTAL_UNITS: String(b.units),
      AEP_START_DATE: mdy(a.day),
      '# OF B/C VIOLATIONS AT START': String(a.violationsAtStart),
      CURRENT_STATUS: discharged ? 'AEP Discharged' : 'AEP Active',
      DISCHARGE_DATE: discharged ? mdy(a.dischargeDay) : '',
      AEP_ROUND: `Aep Round ${a.round}`,
      Postcode: b.zip,
      Latitude: b.latitude.toFixed(6),
      Longitude: b.longitude.toFixed(6),
      'Community Board': String(b.zone.communityBoard),
      'Council District': String(b.zone.councilDistrict),
      'Census Tract': b.censusTract,
      BIN: b.bins[0],
      BBL: b.bbl,
      NTA: b.zone.nta,
    }),
  );
}
