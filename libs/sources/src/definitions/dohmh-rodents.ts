import { defineSource } from '../definition';
import { attributes, emit, requireDate } from '../mapping';
import { headerOf, sodaFieldsFor } from './common';

const HEADER = headerOf(
  'INSPECTION_TYPE,JOB_TICKET_OR_WORK_ORDER_ID,JOB_ID,JOB_PROGRESS,BBL,BORO_CODE,BLOCK,LOT,HOUSE_NUMBER,STREET_NAME,ZIP_CODE,X_COORD,Y_COORD,LATITUDE,LONGITUDE,BOROUGH,INSPECTION_DATE,RESULT,APPROVED_DATE,LOCATION,COMMUNITY BOARD,COUNCIL DISTRICT,CENSUS TRACT,BIN,NTA',
);

/** The BBL column is often blank: borough code + block + lot are the fallback. */
export const dohmhRodents = defineSource({
  key: 'dohmh_rodents',
  name: 'Rodent Inspections',
  agency: 'DOHMH',
  description: 'DOHMH rodent inspections: inspection type, date and time, result.',
  cadence: 'daily',
  components: ['living_conditions'],
  produces: { events: ['rodent_inspection'], facts: [] },
  minimumRows: 1_000_000,
  parts: [
    {
      part: 'main',
      datasetId: 'p937-wjvj',
      fileNames: ['dohmh_rodent_inspections.csv', 'rodent_inspections.csv'],
      header: HEADER,
      sodaFields: sodaFieldsFor(HEADER),
      bbl: [
        { kind: 'bbl_column', column: 'BBL' },
        { kind: 'borough_block_lot', borough: 'BORO_CODE', block: 'BLOCK', lot: 'LOT' },
        { kind: 'bin', column: 'BIN' },
      ],
      recordKey: (f) => f.raw('JOB_TICKET_OR_WORK_ORDER_ID') || null,
      map: ({ f, event }) => {
        const inspected = requireDate(f, 'INSPECTION_DATE');
        if (!inspected.ok) return inspected.outcome;
        const result = f.text('RESULT');
        const type = f.text('INSPECTION_TYPE');
        return emit([
          event({
            event_type: 'rodent_inspection',
            classify_by: [['RESULT', result]],
            status: null,
            occurred_on: inspected.date,
            description: `Rodent inspection (${type ?? 'inspection'}): ${result ?? 'no result'}`,
            attributes: attributes({
              inspection_type: type,
              result,
              job_id: f.text('JOB_ID'),
              job_progress: f.int('JOB_PROGRESS'),
              approved_date: f.date('APPROVED_DATE'),
            }),
          }),
        ]);
      },
    },
  ],
});
