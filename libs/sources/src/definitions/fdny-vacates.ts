import { defineSource } from '../definition';
import { attributes, compositeKey, dateKeyText, emit, requireDate } from '../mapping';
import { sodaFieldsFor } from './common';

/**
 * Built from the published field list (description, vac_date, status_change_date, bin, bbl and the
 * address): no fixture of the real export exists, confirm the header on the first download.
 */
const HEADER = ['description', 'vac_date', 'status_change_date', 'house_number', 'street_name', 'borough', 'postcode', 'bin', 'bbl'];

/**
 * The 11 upper-case columns of the published vacate list (unconfirmed). Field-style names also match
 * their display forms (`DATE_OF_VAC_ORDER`, `Date Of Vac Order`: see headerKey).
 */
const HEADER_LIST = [
  'DESCRIPTION',
  'DATE_OF_VAC_ORDER',
  'BLDG_TX_BORO',
  'AKA_ADDRESS',
  'BLDG_COMMUNITY_DIST',
  'COUNCIL_DISTRICT',
  'BIN',
  'BBL',
  'LST_COMPL_INSP_DATE',
  'STATUS_CHANGE_DATE',
  'OCPCY_DESC',
];

/** A sudden catastrophe (fire, collapse): drives the `fdny-vacate-active` flag, not the chronic score. */
export const fdnyVacates = defineSource({
  key: 'fdny_vacates',
  name: 'FDNY Vacate List',
  agency: 'FDNY',
  description: 'Buildings FDNY ordered vacated: vacate date, status change date, BIN/BBL.',
  cadence: 'rarely',
  components: ['building_safety'],
  produces: { events: ['fdny_vacate'], facts: [] },
  parts: [
    {
      part: 'main',
      datasetId: 'n5xc-7jfa',
      fileNames: ['fdny_vacates.csv', 'fdny_vacate_list.csv'],
      header: HEADER,
      headerVariants: [HEADER_LIST],
      aliases: { DATE_OF_VAC_ORDER: 'vac_date', BLDG_TX_BORO: 'borough' },
      sodaFields: sodaFieldsFor(HEADER),
      bbl: [
        { kind: 'bbl_column', column: 'bbl' },
        { kind: 'bin', column: 'bin' },
      ],
      recordKey: (f) => compositeKey(f.raw('bin') || f.raw('bbl'), dateKeyText(f.raw('vac_date'))),
      map: ({ f, event }) => {
        const vacated = requireDate(f, 'vac_date');
        if (!vacated.ok) return vacated.outcome;
        // A status change after the vacate date lifts it: active until then.
        const changed = f.date('status_change_date');
        const closed = changed !== null && changed > vacated.date;
        return emit([
          event({
            event_type: 'fdny_vacate',
            classify_by: [],
            status: closed ? 'closed' : 'active',
            occurred_on: vacated.date,
            closed_on: closed ? changed : null,
            description: f.text('description') ?? 'FDNY vacate order',
            attributes: attributes({
              status_change_date: changed,
              bin: f.bin('bin'),
              address: f.text('AKA_ADDRESS'),
              occupancy: f.text('OCPCY_DESC'),
              last_complaint_inspection: f.date('LST_COMPL_INSP_DATE'),
            }),
          }),
        ]);
      },
    },
  ],
});
