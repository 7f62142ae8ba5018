import { EventStatus } from '@bhis/domain';
import { defineSource } from '../definition';
import { attributes, dateKeyText, emit } from '../mapping';
import { headerOf, sodaFieldsFor } from './common';

const HEADER = headerOf(
  'BUILDING_ID,BOROUGH,Number (PHN),STREET,TOTAL_UNITS,ORDER_ISSUE_DATE,CURRENT_STATUS,POSTCODE,LATITUDE,LONGITUDE,COMMUNITY BOARD,COUNCIL DISTRICT,BIN,BBL,CENSUS TRACT (2020),NTA (2020)',
);

/** `Discharged` (the published rows) and the program's active state; another word is counted. */
const UCP_STATUS: Readonly<Record<string, EventStatus>> = { ACTIVE: 'active', OPEN: 'active', DISCHARGED: 'discharged' };

export const hpdUnderlyingConditions = defineSource({
  key: 'hpd_underlying_conditions',
  name: 'Underlying Conditions Program (UCP) Orders',
  agency: 'HPD',
  description: 'Buildings ordered to correct underlying leak and mold conditions: order date, status.',
  cadence: 'monthly',
  refresh: 'whole_replace',
  components: ['deferred_maintenance', 'legal_enforcement'],
  produces: { events: ['ucp_order'], facts: [] },
  minimumRows: 100,
  parts: [
    {
      part: 'main',
      datasetId: 'xpbf-ithr',
      fileNames: ['hpd_underlying_conditions.csv'],
      header: HEADER,
      sodaFields: sodaFieldsFor(HEADER, { 'Number (PHN)': 'number' }),
      bbl: [
        { kind: 'bbl_column', column: 'BBL' },
        { kind: 'bin', column: 'BIN' },
      ],
      // The order date is published as text with typos; the raw text keeps the key stable.
      recordKey: (f) => (f.raw('BUILDING_ID') ? `${f.raw('BUILDING_ID')}:${dateKeyText(f.raw('ORDER_ISSUE_DATE'))}` : null),
      map: ({ f, event }) => {
        // Being in the program matters even when the order date is unreadable (e.g. year 0201):
        // the date is counted as a cast failure and left null, the record is kept.
        const issued = f.date('ORDER_ISSUE_DATE');
        const status = f.text('CURRENT_STATUS');
        return emit([
          event({
            event_type: 'ucp_order',
            classify_by: [],
            status: f.word('CURRENT_STATUS', UCP_STATUS),
            occurred_on: issued,
            description: `Underlying Conditions Program order: ${status ?? 'status unknown'}`,
            attributes: attributes({
              building_id: f.int('BUILDING_ID'),
              current_status: status,
              order_issue_date_text: issued ? null : dateKeyText(f.raw('ORDER_ISSUE_DATE')) || null,
              total_units: f.int('TOTAL_UNITS'),
            }),
          }),
        ]);
      },
    },
  ],
});
