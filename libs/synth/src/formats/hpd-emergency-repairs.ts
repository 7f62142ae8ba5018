import type { Building } from '../buildings';
import { csvLine } from '../csv';
import { mdy, mdyTime } from '../dates';
import type { EmergencyRepair } from '../records';
import { HEADERS } from './headers';
import { bin, hpdBuildingId, rowBuilder } from './row';

const buildOmo = rowBuilder(HEADERS.hpd_omo_charges);
const buildHwo = rowBuilder(HEADERS.hpd_hwo_charges);

function round2(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/** Emergency repair order (OMO); `FEMAEventID` set on disaster repairs. */
export function hpdOmoLine(b: Building, r: EmergencyRepair, asOf: number): string {
  return csvLine(
    buildOmo({
      OMOID: String(r.id % 10000000),
      OMONumber: r.number,
      BuildingID: hpdBuildingId(b, r.binIndex),
      'Boro ID': String(b.borough.code),
      Boro: b.borough.title,
      HouseNumber: b.houseNumber,
      StreetName: b.street,
      Apartment: r.apartment,
      Zip: b.zip,
      Block: String(b.block),
      Lot: String(b.lot),
      LifeCycle: 'Standing Building',
      WorkTypeGeneral: r.workType,
      OMOStatusReason: r.awardDay <= asOf ? 'OMO Completed' : '',
      OMOAwardAmount: round2(r.amount),
      OMOCreateDate: mdy(r.day),
      NetChangeOrders: '0',
      OMOAwardDate: r.awardDay <= asOf ? mdy(r.awardDay) : '',
      IsAEP: r.isAep ? 'Y' : '',
      ServiceChargeFlag: r.amount > 1000 ? 'True' : 'False',
      FEMAEventID: r.femaEventId,
      FEMAEvent: r.femaEvent,
      OMODescription: r.description,
      Latitude: b.latitude.toFixed(6),
      Longitude: b.longitude.toFixed(6),
      'Community Board': String(b.zone.communityBoard),
      'Council District': String(b.zone.councilDistrict),
      'Census Tract': b.censusTract,
      BIN: bin(b, r.binIndex),
      BBL: b.bbl,
      NTA: b.zone.nta,
    }),
  );
}

/** Handyman work order (HWO): charge = approved amount + sales tax + admin fee, transferred to DOF. */
export function hpdHwoLine(b: Building, r: EmergencyRepair, asOf: number): string {
  const tax = Math.round(r.amount * 8.875) / 100;
  const fee = Math.round(r.amount * 15) / 100;
  const transferred = r.awardDay + 40 <= asOf;
  return csvLine(
    buildHwo({
      HWOID: String(r.id % 10000000),
      HWONumber: r.number,
      BuildingID: hpdBuildingId(b, r.binIndex),
      BoroID: String(b.borough.code),
      Boro: b.borough.upper,
      HouseNumber: b.houseNumber,
      StreetName: b.street,
      Zip: b.zip,
      Block: String(b.block),
      Lot: String(b.lot),
      LifeCycle: 'Standing Building',
      WorkTypeGeneral: r.workType,
      HWOStatusReason: r.awardDay <= asOf ? 'OMO Completed' : 'Other',
      HWOCreateDate: mdyTime(r.day, 0),
      IsAEP: r.isAep ? 'Y' : '',
      FEMAEventID: r.femaEventId,
      FEMAEvent: r.femaEvent,
      HWODescription: r.description,
      HWOApprovedAmount: round2(r.amount),
      SalesTax: round2(tax),
      AdminFee: round2(fee),
      ChargeAmount: round2(r.amount + tax + fee),
      DateTransferDoF: transferred ? mdyTime(r.awardDay + 40, 0) : '',
      Latitude: b.latitude.toFixed(6),
      Longitude: b.longitude.toFixed(6),
      'Community Board': String(b.zone.communityBoard),
      'Council District': String(b.zone.councilDistrict),
      'Census Tract': b.censusTract,
      BIN: bin(b, r.binIndex),
      BBL: b.bbl,
      NTA: b.zone.nta,
    }),
  );
}
