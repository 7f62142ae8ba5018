import { defineSource } from '../definition';
import { attributes, emit, requireDate } from '../mapping';
import { headerOf, sodaFieldsFor } from './common';

/**
 * The export's columns as the data set's view metadata publishes them: 36 columns whose display
 * names are their field names in upper case (libs/sources/test-fixtures/README.md, facades).
 */
const HEADER = headerOf(
  'TR6_NO,CONTROL_NO,FILING_TYPE,CYCLE,BIN,HOUSE_NO,STREET_NAME,BOROUGH,BLOCK,LOT,SEQUENCE_NO,SUBMITTED_ON,CURRENT_STATUS,QEWI_NAME,QEWI_BUS_NAME,QEWI_BUS_STREET_NAME,QEWI_CITY,QEWI_STATE,QEWI_ZIP,QEWI_NYS_LIC_NO,OWNER_NAME,OWNER_BUS_NAME,OWNER_BUS_STREET_NAME,OWNER_CITY,OWNER_ZIP,OWNER_STATE,FILING_DATE,FILING_STATUS,PRIOR_CYCLE_FILING_DATE,PRIOR_STATUS,FIELD_INSPECTION_COMPLETED_DATE,QEWI_SIGNED_DATE,LATE_FILING_AMT,FAILURE_TO_FILE_AMT,FAILURE_TO_COLLECT_AMT,COMMENTS',
);

/**
 * The 2025-26 field list: the same 36 and four exterior-wall columns at the end. Their display
 * names are not published where we could read them; they are declared by field name in upper case,
 * and a file that spells them otherwise fails the header check naming them (docs/sources.md).
 */
const HEADER_40 = [
  ...HEADER,
  'EXTERIOR_WALL_TYPE_S_',
  'EXTERIOR_WALL_TYPE_OTHER_DESCRIPTION',
  'EXTERIOR_WALL_MATERIAL_S_',
  'EXTERIOR_WALL_MATERIAL_OTHER_DESCRIPTION',
];

export const dobFacades = defineSource({
  key: 'dob_facades',
  name: 'DOB NOW: Safety - Facades Compliance Filings',
  agency: 'DOB',
  description: 'FISP (Local Law 11) facade filings: cycle, filing status SAFE / SWARMP / UNSAFE / No Report Filed, penalties.',
  cadence: 'daily',
  components: ['deferred_maintenance', 'building_safety'],
  produces: { events: ['facade_filing'], facts: [] },
  minimumRows: 10_000,
  parts: [
    {
      part: 'main',
      datasetId: 'xubg-57si',
      fileNames: ['dob_facades.csv', 'facades_compliance_filings.csv'],
      header: HEADER,
      headerVariants: [HEADER_40],
      // the plain rule trims the trailing underscore the published field names keep
      sodaFields: sodaFieldsFor(HEADER_40, {
        EXTERIOR_WALL_TYPE_S_: 'exterior_wall_type_s_',
        EXTERIOR_WALL_MATERIAL_S_: 'exterior_wall_material_s_',
      }),
      bbl: [
        { kind: 'borough_block_lot', borough: 'BOROUGH', block: 'BLOCK', lot: 'LOT' },
        { kind: 'bin', column: 'BIN' },
      ],
      recordKey: (f) => f.raw('TR6_NO') || null,
      map: ({ f, event, recordKey }) => {
        const filed = requireDate(f, 'FILING_DATE', 'SUBMITTED_ON');
        if (!filed.ok) return filed.outcome;
        const filingStatus = f.upper('FILING_STATUS');
        return emit([
          event({
            event_type: 'facade_filing',
            classify_by: [['filing_status', filingStatus]],
            status: 'filed',
            occurred_on: filed.date,
            description: `Facade filing (cycle ${f.text('CYCLE') ?? '?'}): ${filingStatus ?? 'status unknown'}`,
            attributes: attributes({
              tr6_no: recordKey,
              control_no: f.text('CONTROL_NO'),
              filing_type: f.text('FILING_TYPE'),
              cycle: f.text('CYCLE'),
              sequence_no: f.int('SEQUENCE_NO'),
              filing_status: filingStatus,
              current_status: f.text('CURRENT_STATUS'),
              prior_status: f.upper('PRIOR_STATUS'),
              prior_cycle_filing_date: f.date('PRIOR_CYCLE_FILING_DATE'),
              field_inspection_completed_date: f.date('FIELD_INSPECTION_COMPLETED_DATE'),
              late_filing_amt: f.decimal('LATE_FILING_AMT'),
              failure_to_file_amt: f.decimal('FAILURE_TO_FILE_AMT'),
              failure_to_collect_amt: f.decimal('FAILURE_TO_COLLECT_AMT'),
              comments: f.text('COMMENTS'),
              exterior_wall_types: f.text('EXTERIOR_WALL_TYPE_S_'),
              exterior_wall_materials: f.text('EXTERIOR_WALL_MATERIAL_S_'),
              bin: f.bin('BIN'),
            }),
          }),
        ]);
      },
    },
  ],
});
