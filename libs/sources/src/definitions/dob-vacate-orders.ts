import { defineSource } from '../definition';
import { attributes, compositeKey, emit, requireDate, stripFill } from '../mapping';
import { headerOf } from './common';

const HEADER = headerOf(
  'Last Disposition Date (date of issuance of vacate),Last Disposition Year,House Number,Street Name,Borough Name,ZIP Code,Block,Lot,Complaint  Category Description,Last Disposition Code Description',
);

/** Published by FOIL release, not on Open Data: no dataset id, no record id (the key is composite). */
export const dobVacateOrders = defineSource({
  key: 'dob_vacate_orders',
  name: 'DOB Vacate Orders (FOIL release)',
  agency: 'DOB',
  description: 'DOB vacate orders: date of issuance, address, block/lot, complaint category, partial or full vacate.',
  cadence: 'static',
  components: ['building_safety', 'legal_enforcement'],
  produces: { events: ['dob_vacate_order'], facts: [] },
  parts: [
    {
      part: 'main',
      datasetId: null,
      fileNames: ['dob_vacate_orders.csv'],
      header: HEADER,
      bbl: [{ kind: 'borough_block_lot', borough: 'Borough Name', block: 'Block', lot: 'Lot' }],
      recordKey: (f) =>
        compositeKey(
          f.raw('Last Disposition Date (date of issuance of vacate)'),
          f.raw('Borough Name'),
          f.raw('Block'),
          f.raw('Lot'),
          f.raw('House Number'),
        ),
      map: ({ f, event }) => {
        const issued = requireDate(f, 'Last Disposition Date (date of issuance of vacate)');
        if (!issued.ok) return issued.outcome;
        const category = stripFill(f.raw('Complaint  Category Description'));
        const disposition = stripFill(f.raw('Last Disposition Code Description'));
        return emit([
          event({
            event_type: 'dob_vacate_order',
            classify_by: [
              ['Last Disposition Code Description', disposition],
              ['Complaint Category Description', category],
            ],
            // The release carries no rescission: whether the order is still in force is unknown.
            status: null,
            occurred_on: issued.date,
            description: [disposition, category ? `(${category})` : null].filter(Boolean).join(' ') || null,
            attributes: attributes({ complaint_category: category, disposition, vacate_extent: /FULL/.test(disposition ?? '') ? 'full' : 'partial' }),
          }),
        ]);
      },
    },
  ],
});
