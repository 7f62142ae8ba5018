import type { Building } from '../buildings';
import { csvLine } from '../csv';
import { dayOf, mdy, ymdOf } from '../dates';
import { HEADERS } from './headers';
import { headOfficer, holdingCompany, managementCompanyOf, ownerOffice } from './owner-networks';
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

/**
 * Registration contacts as real owner networks file them (owner-networks.ts): the building's own LLC
 * as corporate owner, the owner's head officer and office spelt as this filing spells them, and as
 * agent and site manager the owner's officer or the management company it hires. An individual owner
 * files in their own name at the building's address. `corporateOwners`: the city's corporate owner pool.
 */
export function hpdContactLines(b: Building, corporateOwners: number): string {
  const owner = b.owner;
  const base = b.registrationId * 100;
  const rows: Record<string, string>[] = [];
  if (owner.kind === 'corporate') {
    const office = ownerOffice(owner, b.registrationId);
    const officer = headOfficer(owner, b.registrationId);
    const manager = managementCompanyOf(b, corporateOwners);
    rows.push({ Type: 'CorporateOwner', ContactDescription: 'CORP', CorporationName: holdingCompany(b), ...office });
    rows.push({ Type: 'HeadOfficer', ContactDescription: 'CORP', Title: 'PRESIDENT', ...officer, ...office });
    if (manager) {
      rows.push({ Type: 'Agent', ContactDescription: 'CORP', CorporationName: manager.name, FirstName: manager.officerFirst, LastName: manager.officerLast, ...manager.office });
      if (b.units >= 6) rows.push({ Type: 'SiteManager', ContactDescription: 'CORP', FirstName: manager.officerFirst, LastName: manager.officerLast, ...manager.office });
    } else {
      rows.push({ Type: 'Agent', ContactDescription: 'CORP', CorporationName: owner.name, FirstName: owner.officerFirst, LastName: owner.officerLast, ...office });
      if (b.units >= 6) rows.push({ Type: 'SiteManager', ContactDescription: 'CORP', Title: 'MANAGER', FirstName: owner.officerLast === 'KIM' ? 'ANN' : 'CHRIS', LastName: 'RUSSELL', ...office });
    }
  } else {
    const home = { BusinessHouseNumber: b.houseNumber, BusinessStreetName: b.street, BusinessCity: b.borough.upper, BusinessState: 'NY', BusinessZip: b.zip };
    rows.push({ Type: 'IndividualOwner', ContactDescription: 'INDIV', FirstName: owner.officerFirst, LastName: owner.officerLast, ...home });
    if (b.units >= 6) rows.push({ Type: 'SiteManager', ContactDescription: 'INDIV', Title: 'MANAGER', FirstName: owner.officerLast === 'KIM' ? 'ANN' : 'CHRIS', LastName: 'RUSSELL', ...home });
  }
  return rows
    .map((row, k) => csvLine(buildContact({ RegistrationContactID: String(base + k + 3), RegistrationID: String(b.registrationId), ...row })))
    .join('');
}
