import type { Building } from '../buildings';
import { csvLineQuoteAll } from '../csv';
import { HEADERS } from './headers';
import { rowBuilder } from './row';

const build = rowBuilder(HEADERS.hpd_jurisdiction);

const DOB_CLASS: Readonly<Record<string, readonly [string, string]>> = {
  A: ['24', '1 FAMILY HOUSE'],
  B: ['25', '2 FAMILY HOUSE'],
  C: ['7', 'HERETOFORE CONVERTED CLASS A'],
  D: ['23', 'MULTIPLE DWELLING CLASS A'],
  R: ['23', 'MULTIPLE DWELLING CLASS A'],
  S: ['7', 'HERETOFORE CONVERTED CLASS A'],
};

/** One row per building (BIN) under HPD jurisdiction; all non-empty values quoted. Public housing is managed by NYCHA, the rest privately (PVT). */
export function hpdJurisdictionLines(b: Building, registered: boolean): string {
  let out = '';
  const [classId, className] = DOB_CLASS[b.buildingClass[0]] ?? ['24', 'NOT AVAILABLE'];
  for (let k = 0; k < b.bins.length; k++) {
    out += csvLineQuoteAll(
      build({
        BuildingID: String(b.hpdBuildingIds[k]),
        BoroID: String(b.borough.code),
        Boro: b.borough.upper,
        HouseNumber: b.houseNumber,
        LowHouseNumber: b.lowHouseNumber,
        HighHouseNumber: b.highHouseNumber,
        StreetName: b.street,
        Zip: b.zip,
        Block: String(b.block),
        Lot: String(b.lot),
        BIN: b.bins[k],
        CommunityBoard: String(b.zone.communityBoard),
        CensusTract: b.censusTract,
        ManagementProgram: b.publicHousing ? 'NYCHA' : 'PVT',
        DoBBuildingClassID: classId,
        DoBBuildingClass: className,
        LegalStories: String(b.stories),
        LegalClassA: String(Math.max(1, Math.round(b.units / b.bins.length))),
        LegalClassB: '0',
        RegistrationID: registered ? String(b.registrationId) : '0',
        LifeCycle: 'Building',
        RecordStatusID: '1',
        RecordStatus: 'Active',
      }),
    );
  }
  return out;
}

/** The placeholder rows the real file carries (address `0`, inactive): one per thousand lots. */
export function hpdJurisdictionPlaceholderLine(b: Building): string {
  return csvLineQuoteAll(
    build({
      BuildingID: String(900000 + b.index),
      BoroID: String(b.borough.code),
      Boro: b.borough.upper,
      HouseNumber: '0',
      LowHouseNumber: '0',
      HighHouseNumber: '0',
      StreetName: '0',
      Block: '0',
      Lot: '0',
      CommunityBoard: '0',
      ManagementProgram: 'PVT',
      RegistrationID: '0',
      LifeCycle: 'Building',
      RecordStatusID: '2',
      RecordStatus: 'Inactive',
    }),
  );
}
