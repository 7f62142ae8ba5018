import type { Building } from '../buildings';
import { csvLine } from '../csv';
import { mdy } from '../dates';
import type { Litigation } from '../records';
import { HEADERS } from './headers';
import { rowBuilder } from './row';

const build = rowBuilder(HEADERS.hpd_litigations);

export function hpdLitigationLine(b: Building, l: Litigation, asOf: number): string {
  const closed = l.closeDay <= asOf;
  const respondent = b.owner.kind === 'corporate' ? `${b.owner.officerFirst} ${b.owner.officerLast},${b.owner.name}` : b.owner.name;
  return csvLine(
    build({
      LitigationID: String(l.id % 10000000),
      BuildingID: String(b.hpdBuildingIds[0]),
      Boro: String(b.borough.code),
      HouseNumber: b.houseNumber,
      StreetName: b.street,
      Zip: b.zip,
      Block: String(b.block),
      Lot: String(b.lot),
      CaseType: l.caseType,
      CaseOpenDate: mdy(l.day),
      CaseStatus: closed ? 'CLOSED' : 'PENDING',
      OpenJudgement: l.openJudgement ? 'YES' : 'NO',
      FindingOfHarassment: l.caseType === 'Tenant Action/Harrassment' && closed ? (l.harassment ? 'After Trial' : 'No Harassment') : '',
      FindingDate: l.harassment && closed ? mdy(l.closeDay) : '',
      Penalty: l.penalty > 0 && closed ? String(l.penalty) : '',
      Respondent: respondent,
      Latitude: b.latitude.toFixed(7),
      Longitude: b.longitude.toFixed(6),
      'Community District': String(b.zone.communityBoard),
      'Council District': String(b.zone.councilDistrict),
      'Census Tract': b.censusTract,
      BIN: b.bins[0],
      BBL: b.bbl,
      NTA: b.zone.nta,
    }),
  );
}
