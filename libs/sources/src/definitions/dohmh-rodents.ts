import { defineSource } from '../definition';
import { attributes, compositeKey, emit, requireDate, dayKeyText } from '../mapping';
import { RowFields } from '../row-fields';
import { headerOf, sodaFieldsFor } from './common';

/**
 * Since 2026-08 the export has no JOB_TICKET_OR_WORK_ORDER_ID and no APPROVED_DATE, and carries a
 * letter type and observations (docs/sources.md, rodent inspections). The 2026 field list names
 * `job_id`, `inspection_type`, `inspection_date`, `result`, `letter_type`, `observations`, the
 * address and the lot, and not `job_progress`; the full export header is not published anywhere we
 * could read. The current layout is the 2024 one without the three retired columns, with LETTER_TYPE
 * and OBSERVATIONS; a file that spells them otherwise fails the header check naming them.
 */
const HEADER = headerOf(
  'INSPECTION_TYPE,JOB_ID,BBL,BORO_CODE,BLOCK,LOT,HOUSE_NUMBER,STREET_NAME,ZIP_CODE,X_COORD,Y_COORD,LATITUDE,LONGITUDE,BOROUGH,INSPECTION_DATE,RESULT,LETTER_TYPE,OBSERVATIONS,LOCATION,COMMUNITY BOARD,COUNCIL DISTRICT,CENSUS TRACT,BIN,NTA',
);

/** The same with JOB_PROGRESS still in it (the field list does not say it went). */
const HEADER_WITH_PROGRESS = headerOf(
  'INSPECTION_TYPE,JOB_ID,JOB_PROGRESS,BBL,BORO_CODE,BLOCK,LOT,HOUSE_NUMBER,STREET_NAME,ZIP_CODE,X_COORD,Y_COORD,LATITUDE,LONGITUDE,BOROUGH,INSPECTION_DATE,RESULT,LETTER_TYPE,OBSERVATIONS,LOCATION,COMMUNITY BOARD,COUNCIL DISTRICT,CENSUS TRACT,BIN,NTA',
);

/** 2024-06 to 2026-08: with the ticket id and the approval date. */
const HEADER_2024 = headerOf(
  'INSPECTION_TYPE,JOB_TICKET_OR_WORK_ORDER_ID,JOB_ID,JOB_PROGRESS,BBL,BORO_CODE,BLOCK,LOT,HOUSE_NUMBER,STREET_NAME,ZIP_CODE,X_COORD,Y_COORD,LATITUDE,LONGITUDE,BOROUGH,INSPECTION_DATE,RESULT,APPROVED_DATE,LOCATION,COMMUNITY BOARD,COUNCIL DISTRICT,CENSUS TRACT,BIN,NTA',
);

/**
 * The record key, the same in every layout and through both paths: the job (JOB_ID, a case shared
 * by its initial inspection, compliance inspection and baiting visits), the visit's type and its
 * day, e.g. `PC8122655:INITIAL:2023-06-07` (two visits of one type in one job on one day would be
 * one record). Built only from columns the 2026 field list names; the ticket id and JOB_PROGRESS
 * of older files are attributes. Stored inspections keyed `JOB_ID:JOB_PROGRESS` take this key in
 * migration 1763704400000.
 */
export function rodentInspectionKey(f: RowFields): string | null {
  return compositeKey(f.raw('JOB_ID').toUpperCase(), f.raw('INSPECTION_TYPE').toUpperCase(), dayKeyText(f.raw('INSPECTION_DATE')));
}

/** The BBL column is often blank: borough code + block + lot are the fallback. */
export const dohmhRodents = defineSource({
  key: 'dohmh_rodents',
  name: 'Rodent Inspections',
  agency: 'DOHMH',
  description: 'DOHMH rodent inspections: inspection type, date and time, result, letter type and observations.',
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
      headerVariants: [HEADER_WITH_PROGRESS, HEADER_2024],
      sodaFields: sodaFieldsFor([...HEADER, 'JOB_PROGRESS', 'JOB_TICKET_OR_WORK_ORDER_ID', 'APPROVED_DATE']),
      bbl: [
        { kind: 'bbl_column', column: 'BBL' },
        { kind: 'borough_block_lot', borough: 'BORO_CODE', block: 'BLOCK', lot: 'LOT' },
        { kind: 'bin', column: 'BIN' },
      ],
      recordKey: rodentInspectionKey,
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
              letter_type: f.text('LETTER_TYPE'),
              observations: f.text('OBSERVATIONS'),
              job_ticket_id: f.text('JOB_TICKET_OR_WORK_ORDER_ID'),
              approved_date: f.date('APPROVED_DATE'),
            }),
          }),
        ]);
      },
    },
  ],
});
