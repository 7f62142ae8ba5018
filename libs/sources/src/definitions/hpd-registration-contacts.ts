import { defineSource } from '../definition';
import { facts, joinText, quarantine } from '../mapping';
import { headerOf, sodaFieldsFor } from './common';

const HEADER = headerOf(
  'RegistrationContactID,RegistrationID,Type,ContactDescription,CorporationName,Title,FirstName,MiddleInitial,LastName,BusinessHouseNumber,BusinessStreetName,BusinessApartment,BusinessCity,BusinessState,BusinessZip',
);

export const hpdRegistrationContacts = defineSource({
  key: 'hpd_registration_contacts',
  name: 'Registration Contacts',
  agency: 'HPD',
  description: 'Owners, officers, agents and site managers named in registrations (joined to buildings by registration id).',
  cadence: 'monthly',
  refresh: 'whole_replace',
  components: ['management_quality'],
  produces: { events: [], facts: ['registration_contact'] },
  minimumRows: 500_000,
  parts: [
    {
      part: 'main',
      datasetId: 'feu5-w2e2',
      fileNames: ['hpd_contacts.csv', 'hpd_registration_contacts.csv'],
      header: HEADER,
      sodaFields: sodaFieldsFor(HEADER),
      bbl: [],
      recordKey: (f) => f.raw('RegistrationContactID') || null,
      map: ({ f }) => {
        const contactId = f.int('RegistrationContactID');
        if (contactId === null) return quarantine('missing_record_key', 'RegistrationContactID is not an integer id');
        const registrationId = f.int('RegistrationID');
        if (!registrationId) return quarantine('missing_record_key', 'RegistrationID is blank or not an integer id');
        const corporation = f.upper('CorporationName');
        const person = joinText(f.upper('FirstName'), f.upper('MiddleInitial'), f.upper('LastName'));
        return facts({
          kind: 'registration_contact',
          registration_id: registrationId,
          contact_id: contactId,
          contact_type: f.text('Type'),
          contact_description: f.text('ContactDescription'),
          corporation_name: corporation,
          person_name: person,
          name: corporation ?? person,
          business_address: joinText(
            f.upper('BusinessHouseNumber'),
            f.upper('BusinessStreetName'),
            f.upper('BusinessApartment'),
            f.upper('BusinessCity'),
            f.upper('BusinessState'),
            f.text('BusinessZip'),
          ),
        });
      },
    },
  ],
});
