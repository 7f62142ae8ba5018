import { EventStatus } from '@bhis/domain';
import { defineSource } from '../definition';
import { attributes, emit, requireDate } from '../mapping';
import { headerOf, sodaFieldsFor, STATUS_WORDS } from './common';

const HEADER = headerOf(
  'ISN_DOB_BIS_EXTRACT,ECB_VIOLATION_NUMBER,ECB_VIOLATION_STATUS,DOB_VIOLATION_NUMBER,BIN,BORO,BLOCK,LOT,HEARING_DATE,HEARING_TIME,SERVED_DATE,ISSUE_DATE,SEVERITY,VIOLATION_TYPE,RESPONDENT_NAME,RESPONDENT_HOUSE_NUMBER,RESPONDENT_STREET,RESPONDENT_CITY,RESPONDENT_ZIP,VIOLATION_DESCRIPTION,PENALITY_IMPOSED,AMOUNT_PAID,BALANCE_DUE,INFRACTION_CODE1,SECTION_LAW_DESCRIPTION1,INFRACTION_CODE2,SECTION_LAW_DESCRIPTION2,INFRACTION_CODE3,SECTION_LAW_DESCRIPTION3,INFRACTION_CODE4,SECTION_LAW_DESCRIPTION4,INFRACTION_CODE5,SECTION_LAW_DESCRIPTION5,INFRACTION_CODE6,SECTION_LAW_DESCRIPTION6,INFRACTION_CODE7,SECTION_LAW_DESCRIPTION7,INFRACTION_CODE8,SECTION_LAW_DESCRIPTION8,INFRACTION_CODE9,SECTION_LAW_DESCRIPTION9,INFRACTION_CODE10,SECTION_LAW_DESCRIPTION10,AGGRAVATED_LEVEL,HEARING_STATUS,CERTIFICATION_STATUS',
);

/** `ACTIVE` / `RESOLVE`, and `Unknown` on a few rows (docs/sources.md): not a state of the violation. */
const ECB_STATUS: Readonly<Record<string, EventStatus | null>> = { ...STATUS_WORDS, UNKNOWN: null };

export const dobEcbViolations = defineSource({
  key: 'dob_ecb_violations',
  name: 'DOB ECB Violations',
  agency: 'DOB / OATH',
  description: 'ECB violations issued by DOB: status, severity (Hazardous... or CLASS - 1/2/3), penalty imposed, balance due.',
  cadence: 'daily',
  components: ['building_safety', 'legal_enforcement', 'financial_distress'],
  produces: { events: ['ecb_violation'], facts: [] },
  minimumRows: 1_500_000,
  parts: [
    {
      part: 'main',
      datasetId: '6bgk-3dad',
      fileNames: ['ecb_violations.csv', 'dob_ecb_violations.csv'],
      header: HEADER,
      sodaFields: sodaFieldsFor(HEADER),
      bbl: [
        { kind: 'borough_block_lot', borough: 'BORO', block: 'BLOCK', lot: 'LOT' },
        { kind: 'bin', column: 'BIN' },
      ],
      recordKey: (f) => f.raw('ECB_VIOLATION_NUMBER') || f.raw('ISN_DOB_BIS_EXTRACT') || null,
      map: ({ f, event }) => {
        const issued = requireDate(f, 'ISSUE_DATE', 'SERVED_DATE');
        if (!issued.ok) return issued.outcome;
        const status = f.word('ECB_VIOLATION_STATUS', ECB_STATUS);
        const severity = f.text('SEVERITY');
        const type = f.text('VIOLATION_TYPE');
        return emit([
          event({
            event_type: 'ecb_violation',
            classify_by: [
              ['SEVERITY', severity],
              ['VIOLATION_TYPE', type],
            ],
            status,
            occurred_on: issued.date,
            description: f.text('VIOLATION_DESCRIPTION'),
            attributes: attributes({
              ecb_violation_number: f.text('ECB_VIOLATION_NUMBER'),
              dob_violation_number: f.text('DOB_VIOLATION_NUMBER'),
              ecb_status: f.text('ECB_VIOLATION_STATUS'),
              severity,
              violation_type: type,
              penalty_imposed: f.decimal('PENALITY_IMPOSED'),
              amount_paid: f.decimal('AMOUNT_PAID'),
              balance_due: f.decimal('BALANCE_DUE'),
              hearing_date: f.date('HEARING_DATE'),
              hearing_status: f.text('HEARING_STATUS'),
              certification_status: f.text('CERTIFICATION_STATUS'),
              infraction_code: f.text('INFRACTION_CODE1'),
              section_law: f.text('SECTION_LAW_DESCRIPTION1'),
              aggravated_level: f.text('AGGRAVATED_LEVEL'),
              respondent_name: f.text('RESPONDENT_NAME'),
              bin: f.bin('BIN'),
            }),
          }),
        ]);
      },
    },
  ],
});
