import { defineSource } from '../definition';
import { attributes, compositeKey, dateKeyText, emit, requireDate } from '../mapping';
import { sodaFieldsFor } from './common';

/**
 * The columns by their SODA field names (a JSON pull, or a CSV written with them). The CSV export
 * shows display names that are not a simple transform of the field names (`# of Dwelling Units` ->
 * `of_dwelling_units`, `Re-infested  Dwelling Unit Count` with two spaces -> `re_infested_dwelling_unit`,
 * `Filling Period End Date` sic): DISPLAY_NAMES maps them.
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

/** Display name -> field name. The names are confirmed; their order and the geography columns are not. */
const DISPLAY_NAMES: Record<string, string> = {
  'Building ID': 'building_id',
  'Registration ID': 'registration_id',
  Borough: 'borough',
  'House Number': 'house_number',
  'Street Name': 'street_name',
  Postcode: 'postcode',
  '# of Dwelling Units': 'of_dwelling_units',
  'Infested Dwelling Unit Count': 'infested_dwelling_unit_count',
  'Eradicated Unit Count': 'eradicated_unit_count',
  'Re-infested  Dwelling Unit Count': 're_infested_dwelling_unit',
  'Filing Date': 'filing_date',
  'Filing Period Start Date': 'filing_period_start_date',
  'Filling Period End Date': 'filling_period_end_date',
  Latitude: 'latitude',
  Longitude: 'longitude',
  BIN: 'bin',
  BBL: 'bbl',
};

/** The display-name export, with and without the geography columns the city appends to HPD sets. */
const DISPLAY_HEADER = Object.keys(DISPLAY_NAMES);
const DISPLAY_HEADER_GEO = [...DISPLAY_HEADER, 'Community Board', 'Council District', '2010 Census Tract', 'NTA'];

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
      headerVariants: [DISPLAY_HEADER, DISPLAY_HEADER_GEO],
      aliases: DISPLAY_NAMES,
      sodaFields: sodaFieldsFor(HEADER),
      bbl: [
        { kind: 'bbl_column', column: 'bbl' },
        { kind: 'bin', column: 'bin' },
        { kind: 'registration', column: 'registration_id' },
      ],
      recordKey: (f) => compositeKey(f.raw('building_id') || f.raw('bbl'), dateKeyText(f.raw('filing_period_start_date') || f.raw('filing_date'))),
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
