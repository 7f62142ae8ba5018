import { EventStatus } from '@bhis/domain';
import { defineSource } from '../definition';
import { attributes, emit, requireDate } from '../mapping';
import { RowFields } from '../row-fields';
import { headerOf, sodaFieldsFor } from './common';

const HEADER = headerOf(
  'ISN_DOB_BIS_VIOL,BORO,BIN,BLOCK,LOT,ISSUE_DATE,VIOLATION_TYPE_CODE,VIOLATION_NUMBER,HOUSE_NUMBER,STREET,DISPOSITION_DATE,DISPOSITION_COMMENTS,DEVICE_NUMBER,DESCRIPTION,ECB_NUMBER,NUMBER,VIOLATION_CATEGORY,VIOLATION_TYPE',
);

/**
 * The status lives in VIOLATION_CATEGORY (docs/sources.md): a closed category carries `*`
 * (`V*-DOB VIOLATION - DISMISSED`, `V*-DOB VIOLATION - Resolved`), an active one does not
 * (`V-DOB VIOLATION - ACTIVE`, `VW-...-ACTIVE`, and `V%-DOB VIOLATION`, which has no status word).
 */
export const DOB_VIOLATION_CATEGORY: Readonly<Record<string, EventStatus>> = {
  'V-DOB VIOLATION - ACTIVE': 'open',
  'VW-VIOLATION WORK WITHOUT PERMIT - ACTIVE': 'open',
  'VP-VIOLATION UNSERVED ECB-ACTIVE': 'open',
  'VH-VIOLATION HAZARDOUS - ACTIVE': 'open',
  'VWH-VIOLATION WORK W/OUT PMT HAZARDOUS - ACTIVE': 'open',
  'VPW-VIOLATION UNSERVED ECB-WORK WITHOUT PERMIT-ACTIVE': 'open',
  'V%-DOB VIOLATION': 'open',
  'V*-DOB VIOLATION - DISMISSED': 'dismissed',
  'V*-DOB VIOLATION - RESOLVED': 'resolved',
};

/**
 * A listed category's status; another category is counted (as an unmapped value) and read by the
 * publisher's rule: `*` closes (dismissed or resolved by its tail), no `*` is active.
 */
export function dobViolationStatus(f: RowFields): EventStatus | null {
  const category = f.upper('VIOLATION_CATEGORY');
  if (category === null) return null;
  const listed = f.word('VIOLATION_CATEGORY', DOB_VIOLATION_CATEGORY);
  if (listed !== null) return listed;
  if (!category.includes('*')) return 'open';
  if (category.endsWith('DISMISSED')) return 'dismissed';
  return category.endsWith('RESOLVED') ? 'resolved' : 'closed';
}

export const dobViolations = defineSource({
  key: 'dob_violations',
  name: 'DOB Violations (BIS)',
  agency: 'DOB',
  description: 'DOB violations: padded block/lot, issue date as YYYYMMDD, type code (boilers, elevators, facades...), status.',
  cadence: 'daily',
  components: ['building_safety', 'deferred_maintenance', 'management_quality'],
  produces: { events: ['dob_violation'], facts: [] },
  minimumRows: 2_000_000,
  parts: [
    {
      part: 'main',
      datasetId: '3h2n-5cm9',
      fileNames: ['dob_violations.csv'],
      header: HEADER,
      sodaFields: sodaFieldsFor(HEADER),
      bbl: [
        { kind: 'borough_block_lot', borough: 'BORO', block: 'BLOCK', lot: 'LOT' },
        { kind: 'bin', column: 'BIN' },
      ],
      recordKey: (f) => f.raw('ISN_DOB_BIS_VIOL') || null,
      map: ({ f, event }) => {
        const issued = requireDate(f, 'ISSUE_DATE');
        if (!issued.ok) return issued.outcome;
        const typeCode = f.upper('VIOLATION_TYPE_CODE');
        const status = dobViolationStatus(f);
        const violationType = f.text('VIOLATION_TYPE');
        return emit([
          event({
            event_type: 'dob_violation',
            classify_by: [['VIOLATION_TYPE_CODE', typeCode]],
            status,
            occurred_on: issued.date,
            closed_on: status && status !== 'open' ? f.date('DISPOSITION_DATE') : null,
            description: f.text('DESCRIPTION') ?? violationType,
            attributes: attributes({
              isn: f.int('ISN_DOB_BIS_VIOL'),
              number: f.text('NUMBER'),
              violation_number: f.text('VIOLATION_NUMBER'),
              type_code: typeCode,
              violation_type: violationType,
              violation_category: f.text('VIOLATION_CATEGORY'),
              device_number: f.text('DEVICE_NUMBER'),
              ecb_number: f.text('ECB_NUMBER'),
              disposition_date: f.date('DISPOSITION_DATE'),
              disposition_comments: f.text('DISPOSITION_COMMENTS'),
              bin: f.bin('BIN'),
            }),
          }),
        ]);
      },
    },
  ],
});
