import { defineSource } from '../definition';
import { attributes, emit, requireDate } from '../mapping';
import { sodaFieldsFor } from './common';

/** Built from the published field list (no fixture of the real export): confirm on the first download. */
const HEADER = [
  'tr6_no',
  'control_no',
  'filing_type',
  'cycle',
  'bin',
  'house_no',
  'street_name',
  'borough',
  'block',
  'lot',
  'filing_date',
  'filing_status',
  'current_status',
  'submitted_on',
];

/** The field list with the filing's sequence and the prior cycle's status (names unconfirmed). */
const HEADER_WITH_PRIOR = [...HEADER, 'sequence_no', 'prior_status'];

export const dobFacades = defineSource({
  key: 'dob_facades',
  name: 'DOB NOW: Safety - Facades Compliance Filings',
  agency: 'DOB',
  description: 'FISP (Local Law 11) facade filings: cycle and filing status SAFE / SWARMP / UNSAFE / No Report Filed.',
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
      headerVariants: [HEADER_WITH_PRIOR],
      sodaFields: sodaFieldsFor(HEADER_WITH_PRIOR),
      bbl: [
        { kind: 'borough_block_lot', borough: 'borough', block: 'block', lot: 'lot' },
        { kind: 'bin', column: 'bin' },
      ],
      recordKey: (f) => f.raw('tr6_no') || null,
      map: ({ f, event, recordKey }) => {
        const filed = requireDate(f, 'filing_date', 'submitted_on');
        if (!filed.ok) return filed.outcome;
        const filingStatus = f.upper('filing_status');
        return emit([
          event({
            event_type: 'facade_filing',
            classify_by: [['filing_status', filingStatus]],
            status: 'filed',
            occurred_on: filed.date,
            description: `Facade filing (cycle ${f.text('cycle') ?? '?'}): ${filingStatus ?? 'status unknown'}`,
            attributes: attributes({
              tr6_no: recordKey,
              control_no: f.text('control_no'),
              filing_type: f.text('filing_type'),
              cycle: f.text('cycle'),
              filing_status: filingStatus,
              current_status: f.text('current_status'),
              sequence_no: f.int('sequence_no'),
              prior_status: f.upper('prior_status'),
              bin: f.bin('bin'),
            }),
          }),
        ]);
      },
    },
  ],
});
