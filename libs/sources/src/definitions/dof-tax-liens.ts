import { defineSource } from '../definition';
import { attributes, compositeKey, emit, requireDate } from '../mapping';
import { headerOf, sodaFieldsFor } from './common';

const HEADER = headerOf('Month,Cycle,Borough,Block ,Lot,Tax Class Code,Building Class,Community Board,Council District,House Number,Street Name,Zip Code,Water Debt Only');

export const dofTaxLiens = defineSource({
  key: 'dof_tax_liens',
  name: 'Tax Lien Sale Lists',
  agency: 'DOF',
  description: 'Properties on the tax lien sale lists: month (MM/YYYY), notice cycle, borough/block/lot, water debt only.',
  cadence: 'per_sale',
  components: ['financial_distress'],
  produces: { events: ['tax_lien_sale_listing'], facts: [] },
  minimumRows: 1_000,
  parts: [
    {
      part: 'main',
      datasetId: '9rz4-mjek',
      fileNames: ['dof_tax_lien_sale_list.csv', 'tax_lien_sale_list.csv'],
      header: HEADER,
      sodaFields: sodaFieldsFor(HEADER),
      bbl: [{ kind: 'borough_block_lot', borough: 'Borough', block: 'Block', lot: 'Lot' }],
      recordKey: (f) => compositeKey(f.raw('Month'), f.raw('Borough'), f.raw('Block'), f.raw('Lot'), f.raw('Cycle')),
      map: ({ f, event }) => {
        const listed = requireDate(f, 'Month');
        if (!listed.ok) return listed.outcome;
        const cycle = f.text('Cycle');
        const waterOnly = f.bool('Water Debt Only');
        return emit([
          event({
            event_type: 'tax_lien_sale_listing',
            classify_by: [['Cycle', cycle]],
            status: 'info',
            occurred_on: listed.date,
            description: `Tax lien sale list${cycle ? `, ${cycle}` : ''}${waterOnly ? ' (water debt only)' : ''}`,
            attributes: attributes({
              cycle,
              water_debt_only: waterOnly,
              tax_class: f.text('Tax Class Code'),
              building_class: f.upper('Building Class'),
            }),
          }),
        ]);
      },
    },
  ],
});
