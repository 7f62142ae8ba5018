import { defineSource } from '../definition';
import { attributes, emit, recordIdValue, requireDate } from '../mapping';
import { headerOf, sodaFieldsFor } from './common';

const HEADER = headerOf(
  'BUILDING ID,REGISTRATION ID,BOROUGH,NUMBER,STREET,VACATE ORDER NUMBER,PRIMARY VACATE REASON,VACATE TYPE,VACATE EFFECTIVE DATE,RESCIND DATE,NUMBER OF VACATED UNITS,POSTCODE,LATITUDE,LONGITUDE,COMMUNITY BOARD,COUNCIL DISTRICT,CENSUS TRACT,BIN,BBL,NTA',
);

export const hpdVacateOrders = defineSource({
  key: 'hpd_vacate_orders',
  name: 'Order to Repair/Vacate Orders',
  agency: 'HPD',
  description: 'HPD vacate orders: reason (Fire Damage, Illegal Occupancy, Habitability), extent, effective and rescind dates.',
  cadence: 'daily',
  components: ['building_safety', 'legal_enforcement'],
  produces: { events: ['hpd_vacate_order'], facts: [] },
  minimumRows: 5_000,
  parts: [
    {
      part: 'main',
      datasetId: 'tb8q-a3ar',
      fileNames: ['hpd_vacateorders.csv', 'hpd_vacate_orders.csv'],
      header: HEADER,
      // Published field names (the CSV says RESCIND DATE, the API actual_rescind_date)
      sodaFields: sodaFieldsFor(HEADER, {
        'RESCIND DATE': 'actual_rescind_date',
        BOROUGH: 'boro_short_name',
        NUMBER: 'house_number',
        STREET: 'street_name',
      }),
      bbl: [
        { kind: 'bbl_column', column: 'BBL' },
        { kind: 'bin', column: 'BIN' },
        { kind: 'registration', column: 'REGISTRATION ID' },
      ],
      recordKey: (f) => f.raw('VACATE ORDER NUMBER') || null,
      map: ({ f, event, recordKey }) => {
        const effective = requireDate(f, 'VACATE EFFECTIVE DATE');
        if (!effective.ok) return effective.outcome;
        const rescinded = f.date('RESCIND DATE');
        const reason = f.text('PRIMARY VACATE REASON');
        const extent = f.text('VACATE TYPE');
        return emit([
          event({
            event_type: 'hpd_vacate_order',
            classify_by: [
              ['PRIMARY VACATE REASON', reason],
              ['VACATE TYPE', extent],
            ],
            // No rescind date: the order is still in force.
            status: rescinded ? 'rescinded' : 'active',
            occurred_on: effective.date,
            closed_on: rescinded,
            description: [extent, 'vacate order', reason ? `(${reason})` : null].filter(Boolean).join(' '),
            attributes: attributes({
              vacate_order_number: recordIdValue(recordKey),
              reason,
              vacate_type: extent,
              units_vacated: f.int('NUMBER OF VACATED UNITS'),
              rescind_date: rescinded,
              building_id: f.int('BUILDING ID'),
              registration_id: f.int('REGISTRATION ID') || null,
            }),
          }),
        ]);
      },
    },
  ],
});
