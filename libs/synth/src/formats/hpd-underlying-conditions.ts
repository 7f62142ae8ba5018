import type { Building } from '../buildings';
import { csvLine } from '../csv';
import { mdy } from '../dates';
import type { UcpOrder } from '../records';
import { HEADERS } from './headers';
import { rowBuilder } from './row';

const build = rowBuilder(HEADERS.hpd_underlying_conditions);

/** UCP order. Some order dates carry the real file's garbled year (`10/24/0201` for 2019). */
export function hpdUcpLine(b: Building, u: UcpOrder, asOf: number): string {
  const date = mdy(u.day);
  const issued = u.garbledYear ? `${date.slice(0, 6)}0${date.slice(6, 9)}` : date;
  return csvLine(
    build({
      BUILDING_ID: String(b.hpdBuildingIds[0]),
      BOROUGH: b.borough.title,
      'Number (PHN)': b.houseNumber,
      STREET: b.street,
      TOTAL_UNITS: String(b.units),
      ORDER_ISSUE_DATE: issued,
      CURRENT_STATUS: u.dischargeDay <= asOf ? 'Discharged' : 'Active',
      POSTCODE: b.zip,
      LATITUDE: b.latitude.toFixed(6),
      LONGITUDE: b.longitude.toFixed(6),
      'COMMUNITY BOARD': String(b.zone.communityBoard),
      'COUNCIL DISTRICT': String(b.zone.councilDistrict),
      BIN: b.bins[0],
      BBL: b.bbl,
      'CENSUS TRACT (2020)': b.censusTract,
      'NTA (2020)': b.zone.nta,
    }),
  );
}
