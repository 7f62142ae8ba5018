import { defineSource } from '../definition';
import { attributes, compositeKey, emit, requireDate } from '../mapping';
import { sodaFieldsFor } from './common';

/**
 * No fixture of the real export exists: the header is the published field list (sources.md), which
 * the CSV export shows as display names. The first real download must be checked against it; the
 * header check fails loudly if it differs.
 */
const HEADER = [
  'building_id',
  'registration_id',
  'borough',
  'house_number',
  'street_name',
  'postcode',
  'of_dwelling_units',
  'infested_dwelling_unit_count',
  'eradicated_unit_count',
  're_infested_dwelling_unit',
  'filing_date',
  'filing_period_start_date',
  'filling_period_end_date',
  'latitude',
  'longitude',
  'bin',
  'bbl',
];

export const hpdBedbugs = defineSource({
  key: 'hpd_bedbugs',
  name: 'Bedbug Reporting',
  agency: 'HPD',
  description: 'Annual bedbug filings: dwelling units, infested, eradicated and re-infested units.',
  cadence: 'yearly',
  components: ['living_conditions', 'management_quality'],
  produces: { events: ['bedbug_filing'], facts: [] },
  minimumRows: 100_000,
  parts: [
    {
      part: 'main',
      datasetId: 'wz6d-d3jb',
      fileNames: ['hpd_bedbugs.csv', 'bedbug_reporting.csv'],
      header: HEADER,
      sodaFields: sodaFieldsFor(HEADER),
      bbl: [
        { kind: 'bbl_column', column: 'bbl' },
        { kind: 'bin', column: 'bin' },
        { kind: 'registration', column: 'registration_id' },
      ],
      recordKey: (f) => compositeKey(f.raw('building_id') || f.raw('bbl'), f.raw('filing_period_start_date') || f.raw('filing_date')),
      map: ({ f, event }) => {
        const filed = requireDate(f, 'filing_date', 'filing_period_start_date');
        if (!filed.ok) return filed.outcome;
        const infested = f.int('infested_dwelling_unit_count');
        return emit([
          event({
            event_type: 'bedbug_filing',
            classify_by: [['infested units', infested && infested > 0 ? 'SOME' : null]],
            status: 'filed',
            occurred_on: filed.date,
            description: infested ? `Bedbug filing: ${infested} infested unit(s)` : 'Bedbug filing: no infested units',
            attributes: attributes({
              dwelling_units: f.int('of_dwelling_units'),
              infested_units: infested,
              eradicated_units: f.int('eradicated_unit_count'),
              reinfested_units: f.int('re_infested_dwelling_unit'),
              filing_period_start: f.date('filing_period_start_date'),
              filing_period_end: f.date('filling_period_end_date'),
              building_id: f.int('building_id'),
              registration_id: f.int('registration_id') || null,
            }),
          }),
        ]);
      },
    },
  ],
});
