import { BblLocator, defineSource, RelevanceCheck, RowMapper } from '../definition';
import { attributes, compositeKey, emit, joinText, requireDate } from '../mapping';
import { RowFields } from '../row-fields';
import { headerOf, sodaFieldsFor } from './common';

const HEADER = headerOf(
  'Court Index Number,Docket Number ,Eviction Address,Eviction Apartment Number,Executed Date,Marshal First Name,Marshal Last Name,Residential/Commercial,BOROUGH,Eviction Postcode,Ejectment,Eviction/Legal Possession,Latitude,Longitude,Community Board,Council District,Census Tract,BIN,BBL,NTA',
);

/** The older compiled file: lower-case names, coordinates scaled by 1e6, ISO dates. */
const MARSHAL_HEADER = headerOf(
  'bbl,bin,borough,censustract,cleaned_address,communityboard,councildistrict,courtindexnumber,docketnumber,ejectment,evictionaddress,evictionapartmentnumber,evictionlegalpossession,evictionpostcode,evictionzip,executeddate,geosearch_address,latitude,longitude,marshal1stname,marshallastname,nta,residentialcommercial,schedulestatus,uniqueid',
);

const MARSHAL_ALIASES: Record<string, string> = {
  bbl: 'BBL',
  bin: 'BIN',
  borough: 'BOROUGH',
  courtindexnumber: 'Court Index Number',
  docketnumber: 'Docket Number',
  ejectment: 'Ejectment',
  evictionaddress: 'Eviction Address',
  evictionapartmentnumber: 'Eviction Apartment Number',
  evictionlegalpossession: 'Eviction/Legal Possession',
  evictionpostcode: 'Eviction Postcode',
  executeddate: 'Executed Date',
  latitude: 'Latitude',
  longitude: 'Longitude',
  marshal1stname: 'Marshal First Name',
  marshallastname: 'Marshal Last Name',
  residentialcommercial: 'Residential/Commercial',
};

/** Court index and docket numbers without their zero padding, so both files give the same key. */
function evictionKey(f: RowFields): string | null {
  const unpad = (text: string) => text.replace(/^0+(?=\d)/, '').toUpperCase();
  return compositeKey(unpad(f.raw('Court Index Number')), unpad(f.raw('Docket Number')));
}

const bbl: BblLocator[] = [
  { kind: 'bbl_column', column: 'BBL' },
  { kind: 'bin', column: 'BIN' },
];

/** Commercial evictions say nothing about the housing: out of scope. */
const isRelevant: RelevanceCheck = (f) => (/^COMMERCIAL/i.test(f.raw('Residential/Commercial')) ? 'commercial_eviction' : null);

const map: RowMapper = ({ f, event }) => {
  const executed = requireDate(f, 'Executed Date');
  if (!executed.ok) return executed.outcome;
  const possession = f.upper('Eviction/Legal Possession');
  const apartment = f.text('Eviction Apartment Number');
  return emit([
    event({
      event_type: 'eviction',
      classify_by: [['Eviction/Legal Possession', possession]],
      status: null,
      occurred_on: executed.date,
      // `Eviction`, `Possession`, or `Unspecified` (read as blank) (docs/sources.md)
      description: `Executed ${possession === 'POSSESSION' ? 'legal possession' : possession === 'EVICTION' ? 'eviction' : 'eviction or legal possession'}${apartment ? `, apartment ${apartment}` : ''}`,
      attributes: attributes({
        court_index_number: f.text('Court Index Number'),
        docket_number: f.text('Docket Number'),
        apartment,
        address: f.upper('Eviction Address'),
        possession_type: possession,
        ejectment: f.text('Ejectment'),
        marshal: joinText(f.text('Marshal First Name'), f.text('Marshal Last Name')),
        bin: f.bin('BIN'),
      }),
    }),
  ]);
};

const eviction = { bbl, recordKey: evictionKey, isRelevant, map };

export const evictions = defineSource({
  key: 'evictions',
  name: 'Evictions (executed by City Marshals)',
  agency: 'DOI',
  description: 'Executed residential evictions and legal possessions: date, address, apartment, BIN, BBL (often missing).',
  cadence: 'daily',
  components: ['financial_distress', 'legal_enforcement'],
  produces: { events: ['eviction'], facts: [] },
  minimumRows: 50_000,
  parts: [
    {
      part: 'main',
      datasetId: '6z8x-wfk4',
      fileNames: ['executed_evictions.csv', 'evictions.csv'],
      header: HEADER,
      sodaFields: sodaFieldsFor(HEADER, {
        'Eviction Apartment Number': 'eviction_apt_num',
        'Residential/Commercial': 'residential_commercial_ind',
        'Eviction/Legal Possession': 'eviction_possession',
        'Eviction Postcode': 'eviction_zip',
      }),
      ...eviction,
    },
    { part: 'marshal_compiled', datasetId: null, fileNames: ['marshal_evictions_all.csv'], header: MARSHAL_HEADER, aliases: MARSHAL_ALIASES, ...eviction },
  ],
});
