import { EventStatus } from '@bhis/domain';
import { defineSource } from '../definition';
import { attributes, dateKeyText, emit, requireDate } from '../mapping';
import { headerOf, sodaFieldsFor } from './common';

const HEADER = headerOf(
  'BUILDING_ID,BOROUGH,NUMBER,STREET,TOTAL_UNITS,AEP_START_DATE,# OF B/C VIOLATIONS AT START,CURRENT_STATUS,DISCHARGE_DATE,AEP_ROUND,Postcode,Latitude,Longitude,Community Board,Council District,Census Tract,BIN,BBL,NTA',
);

/** `AEP Active` / `AEP Discharged` (docs/sources.md); another word is counted and read as active. */
const AEP_STATUS: Readonly<Record<string, EventStatus>> = { 'AEP ACTIVE': 'active', 'AEP DISCHARGED': 'discharged' };

export const hpdAep = defineSource({
  key: 'hpd_aep',
  name: 'Alternative Enforcement Program (AEP) Buildings',
  agency: 'HPD',
  description: 'Buildings selected for AEP: start date, B/C violations at start, status, discharge date, round.',
  cadence: 'monthly',
  refresh: 'whole_replace',
  components: ['legal_enforcement', 'deferred_maintenance'],
  produces: { events: ['aep_enrollment'], facts: [] },
  minimumRows: 3_000,
  parts: [
    {
      part: 'main',
      datasetId: 'hcir-3275',
      fileNames: ['hpd_aep.csv'],
      header: HEADER,
      sodaFields: sodaFieldsFor(HEADER),
      bbl: [
        { kind: 'bbl_column', column: 'BBL' },
        { kind: 'bin', column: 'BIN' },
      ],
      // A building can be selected again in a later round: the round is part of the key.
      recordKey: (f) => (f.raw('BUILDING_ID') ? `${f.raw('BUILDING_ID')}:${f.raw('AEP_ROUND') || dateKeyText(f.raw('AEP_START_DATE'))}` : null),
      map: ({ f, event }) => {
        const started = requireDate(f, 'AEP_START_DATE');
        if (!started.ok) return started.outcome;
        const status = f.text('CURRENT_STATUS');
        const discharged = f.date('DISCHARGE_DATE');
        const isDischarged = Boolean(discharged) || f.word('CURRENT_STATUS', AEP_STATUS) === 'discharged';
        return emit([
          event({
            event_type: 'aep_enrollment',
            classify_by: [],
            status: isDischarged ? 'discharged' : 'active',
            occurred_on: started.date,
            closed_on: discharged,
            description: `Alternative Enforcement Program${f.text('AEP_ROUND') ? ` (${f.text('AEP_ROUND')})` : ''}: ${status ?? 'status unknown'}`,
            attributes: attributes({
              building_id: f.int('BUILDING_ID'),
              aep_round: f.text('AEP_ROUND'),
              current_status: status,
              discharge_date: discharged,
              bc_violations_at_start: f.int('# OF B/C VIOLATIONS AT START'),
              total_units: f.int('TOTAL_UNITS'),
            }),
          }),
        ]);
      },
    },
  ],
});
