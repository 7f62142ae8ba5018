import type { Building } from '../buildings';
import { csvLine } from '../csv';
import { dayOf, mdy, ymdOf } from '../dates';
import { HEADERS } from './headers';
import { rowBuilder } from './row';

const buildRegistration = rowBuilder(HEADERS.hpd_registrations);
const buildContact = rowBuilder(HEADERS.hpd_registration_contacts);

/** The registration as of `asOf`: last registration before it, valid until September 1 of the next year. */
export function hpdRegistrationLine(b: Building, lastRegistration: number): string {
  const { year, month } = ymdOf(lastRegistration);
  const endDay = dayOf(month >= 9 ? year + 1 : year, 9, 1);
  return csvLine(
    buildRegistration({
      RegistrationID: String(b.registrationId),
      BuildingID: String(b.hpdBuildingIds[0]),
      BoroID: String(b.borough.code),
      Boro: b.borough.upper,
      HouseNumber: b.houseNumber,
      LowHouseNumber: b.lowHouseNumber,
      HighHouseNumber: b.highHouseNumber,
      StreetName: b.street,
      StreetCode: b.streetCode,
      Zip: b.zip,
      Block: String(b.block),
      Lot: String(b.lot),
      BIN: b.bins[0],
      CommunityBoard: String(b.zone.communityBoard),
      LastRegistrationDate: mdy(lastRegistration),
      RegistrationEndDate: mdy(endDay),
    }),
  );
}

/** Registration contacts: the owner (corporate name = PLUTO owner), its head officer, agent and site manager. */
export function hpdContactLines(b: Building): string {
  const owner = b.owner;
  const corporate = owner.kind === 'corporate';
  const base = b.registrationId * 100;
  const rows: Record<string, string>[] = [];
  const address = corporate
    ? { BusinessHouseNumber: owner.businessHouseNumber, BusinessStreetName: owner.businessStreet, BusinessCity: owner.businessCity, BusinessState: 'NY', BusinessZip: owner.businessZip }
    : { BusinessHouseNumber: b.houseNumber, BusinessStreetName: b.street, BusinessCity: b.borough.upper, BusinessState: 'NY', BusinessZip: b.zip };
  if (corporate) {
    rows.push({ Type: 'CorporateOwner', ContactDescription: 'CORP', CorporationName: owner.name, ...address });
    rows.push({ Type: 'HeadOfficer', ContactDescription: 'CORP', Title: 'PRESIDENT', FirstName: owner.officerFirst, LastName: owner.officerLast, ...address });
    rows.push({ Type: 'Agent', ContactDescription: 'CORP', CorporationName: owner.name, FirstName: owner.officerFirst, LastName: owner.officerLast, ...address });
  } else {
    rows.push({ Type: 'IndividualOwner', ContactDescription: 'INDIV', FirstName: owner.officerFirst, LastName: owner.officerLast, ...address });
  }
  if (b.units >= 6) rows.push({ Type: 'SiteManager', ContactDescription: 'INDIV', Title: 'MANAGER', FirstName: owner.officerLast === 'KIM' ? 'ANN' : 'CHRIS', LastName: 'RUSSELL', ...address });
  return rows
    .map((row, k) => csvLine(buildContact({ RegistrationContactID: String(base + k + 3), RegistrationID: String(b.registrationId), ...row })))
    .join('');
}
