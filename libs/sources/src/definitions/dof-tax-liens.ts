import { defineSource } from '../definition';
import { attributes, compositeKey, emit, requireDate } from '../mapping';
import { headerOf, sodaFieldsFor } from './common';

const ISO_MONTH = /^(\d{4})-(\d{2})-01(?:T00:00:00(?:\.000)?)?$/;
const SLASH_MONTH = /^(\d{1,2})\/(\d{4})$/;

/**
 * The listing month as it goes into the record key, the same through both paths: the CSV export
 * writes `05/2025`, the JSON API the first of the month, `2025-05-01T00:00:00.000`; both give
 * `05/2025` (the CSV spelling, so keys stored from CSV loads stay as they are).
 */
export function monthKeyText(raw: string): string {
  const text = raw.trim();
  const iso = ISO_MONTH.exec(text);
  if (iso) return `${iso[2]}/${iso[1]}`;
  const slash = SLASH_MONTH.exec(text);
  return slash ? `${slash[1].padStart(2, '0')}/${slash[2]}` : text;
}

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
      recordKey: (f) => compositeKey(monthKeyText(f.raw('Month')), f.raw('Borough'), f.raw('Block'), f.raw('Lot'), f.raw('Cycle')),
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
