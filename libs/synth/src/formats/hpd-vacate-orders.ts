import type { Building } from '../buildings';
import { csvLine } from '../csv';
import { mdy } from '../dates';
import type { HpdVacate } from '../records';
import { HEADERS } from './headers';
import { bin, hpdBuildingId, mdyIfBy, rowBuilder } from './row';

const build = rowBuilder(HEADERS.hpd_vacate_orders);

/** HPD vacate order: no rescind date means the order is active. */
export function hpdVacateLine(b: Building, v: HpdVacate, asOf: number): string {
  return csvLine(
    build({
      'BUILDING ID': hpdBuildingId(b, v.binIndex),
      'REGISTRATION ID': b.hpdJurisdiction ? String(b.registrationId) : '0',
      BOROUGH: b.borough.abbrev,
      NUMBER: b.houseNumber,
      STREET: b.street,
      'VACATE ORDER NUMBER': String(v.orderNumber % 1000000),
      'PRIMARY VACATE REASON': v.reason,
      'VACATE TYPE': v.entire ? 'Entire Building' : 'Partial',
      'VACATE EFFECTIVE DATE': mdy(v.day),
      'RESCIND DATE': mdyIfBy(v.rescindDay, asOf),
      'NUMBER OF VACATED UNITS': String(v.units),
      POSTCODE: b.zip,
      LATITUDE: b.latitude.toFixed(5),
      LONGITUDE: b.longitude.toFixed(5),
      'COMMUNITY BOARD': String(b.zone.communityBoard),
      'COUNCIL DISTRICT': String(b.zone.councilDistrict),
      'CENSUS TRACT': b.censusTract,
      BIN: bin(b, v.binIndex),
      BBL: b.bbl,
      NTA: b.zone.nta,
    }),
  );
}
