import { defineSource } from '../definition';
import { facts, joinText, quarantine } from '../mapping';
import { headerOf, sodaFieldsFor } from './common';

const HEADER = headerOf(
  '"BuildingID","BoroID","Boro","HouseNumber","LowHouseNumber","HighHouseNumber","StreetName","Zip","Block","Lot","BIN","CommunityBoard","CensusTract","ManagementProgram","DoBBuildingClassID","DoBBuildingClass","LegalStories","LegalClassA","LegalClassB","RegistrationID","LifeCycle","RecordStatusID","RecordStatus"',
);

export const hpdJurisdiction = defineSource({
  key: 'hpd_jurisdiction',
  name: 'Buildings Subject to HPD Jurisdiction',
  agency: 'HPD',
  description: 'HPD building ids, BINs, legal units and stories: the unit denominators and the BIN<->BBL map.',
  cadence: 'monthly',
  refresh: 'whole_replace',
  components: [],
  produces: { events: [], facts: ['hpd_building'] },
  minimumRows: 300_000,
  parts: [
    {
      part: 'main',
      datasetId: 'kj4p-ruqc',
      fileNames: ['hpd_jurisdiction.csv'],
      header: HEADER,
      sodaFields: sodaFieldsFor(HEADER),
      bbl: [{ kind: 'borough_block_lot', borough: 'BoroID', block: 'Block', lot: 'Lot' }],
      recordKey: (f) => f.raw('BuildingID') || null,
      map: ({ f, bbl }) => {
        const classA = f.int('LegalClassA');
        const classB = f.int('LegalClassB');
        const registrationId = f.int('RegistrationID');
        const buildingId = f.int('BuildingID');
        if (buildingId === null) return quarantine('missing_record_key', 'BuildingID is not an integer id');
        return facts({
          kind: 'hpd_building',
          bbl: bbl as string,
          bin: f.bin('BIN'),
          hpd_building_id: buildingId,
          legal_units: classA === null && classB === null ? null : (classA ?? 0) + (classB ?? 0),
          legal_class_a: classA,
          legal_class_b: classB,
          stories: f.int('LegalStories'),
          lifecycle: f.text('LifeCycle'),
          management_program: f.upper('ManagementProgram'),
          record_status: f.text('RecordStatus'),
          registration_id: registrationId ? registrationId : null,
          house_number: f.text('HouseNumber'),
          street_name: joinText(f.upper('StreetName')),
          zipcode: f.text('Zip'),
        });
      },
    },
  ],
});
