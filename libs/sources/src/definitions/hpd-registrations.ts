import { defineSource } from '../definition';
import { emit, quarantine } from '../mapping';
import { headerOf, sodaFieldsFor } from './common';

const HEADER = headerOf(
  'RegistrationID,BuildingID,BoroID,Boro,HouseNumber,LowHouseNumber,HighHouseNumber,StreetName,StreetCode,Zip,Block,Lot,BIN,CommunityBoard,LastRegistrationDate,RegistrationEndDate',
);

export const hpdRegistrations = defineSource({
  key: 'hpd_registrations',
  name: 'Multiple Dwelling Registrations',
  agency: 'HPD',
  description: 'Annual property registrations: last registration and end dates (no BBL column: built from boro/block/lot).',
  cadence: 'monthly',
  refresh: 'whole_replace',
  components: ['management_quality'],
  produces: { events: ['registration_filed'], facts: ['registration'] },
  minimumRows: 150_000,
  parts: [
    {
      part: 'main',
      datasetId: 'tesw-yqqr',
      fileNames: ['hpd_registrations.csv'],
      header: HEADER,
      sodaFields: sodaFieldsFor(HEADER),
      bbl: [
        { kind: 'borough_block_lot', borough: 'BoroID', block: 'Block', lot: 'Lot' },
        { kind: 'borough_block_lot', borough: 'Boro', block: 'Block', lot: 'Lot' },
        { kind: 'bin', column: 'BIN' },
      ],
      recordKey: (f) => f.raw('RegistrationID') || null,
      map: ({ f, bbl, event }) => {
        const registrationId = f.int('RegistrationID');
        if (registrationId === null) return quarantine('missing_record_key', 'RegistrationID is not an integer id');
        const lastRegistration = f.date('LastRegistrationDate');
        const endDate = f.date('RegistrationEndDate');
        const bin = f.bin('BIN');
        const buildingId = f.int('BuildingID');
        const registration = {
          kind: 'registration' as const,
          bbl: bbl as string,
          bin,
          registration_id: registrationId,
          hpd_building_id: buildingId,
          last_registration_date: lastRegistration,
          registration_end_date: endDate,
        };
        const filed = event({
          event_type: 'registration_filed',
          classify_by: [],
          status: 'filed',
          occurred_on: lastRegistration,
          description: endDate ? `Registration filed, valid until ${endDate}` : 'Registration filed',
          attributes: { registration_id: registrationId, building_id: buildingId, bin, registration_end_date: endDate },
        });
        return emit(lastRegistration ? [filed] : [], [registration]);
      },
    },
  ],
});
