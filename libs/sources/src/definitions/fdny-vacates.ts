import { EventStatus } from '@bhis/domain';
import { defineSource } from '../definition';
import { attributes, compositeKey, dateKeyText, emit, requireDate } from '../mapping';
import { sodaFieldsFor } from './common';

/**
 * No export header of the list as it is now (keyed by BIN and BBL) is published where we could read
 * it (docs/sources.md, FDNY vacates). Public code reading the 2026 list names the fields `vac_date`,
 * `description`, `bin`, `bbl` and `aka_address`; the status change date and the address columns
 * are the design's field list. The only real layout seen, the 2017 view (`vac_date,num,pf,street,
 * typ,sf,bor,date_of_lif,area_vac,div`), has no BIN or BBL and is refused naming these columns.
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

/**
 * `description` is the order's disposition, not its reason: `Rescinded` or `Dismissal` once lifted,
 * empty while the order is in force (docs/sources.md, FDNY vacates). Another word is counted and
 * the status change date decides.
 */
const DISPOSITION: Readonly<Record<string, EventStatus>> = { RESCINDED: 'rescinded', DISMISSAL: 'dismissed', DISMISSED: 'dismissed' };

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
        // The disposition lifts it; without one, a status change after the vacate date does.
        const changed = f.date('status_change_date');
        const disposition = f.word('description', DISPOSITION);
        const status: EventStatus = disposition ?? (changed !== null && changed > vacated.date ? 'closed' : 'active');
        return emit([
          event({
            event_type: 'fdny_vacate',
            classify_by: [],
            status,
            occurred_on: vacated.date,
            closed_on: status === 'active' ? null : changed,
            description: f.text('description') ? `FDNY vacate order: ${f.text('description')}` : 'FDNY vacate order',
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
