import { EventStatus } from '@bhis/domain';
import { hasClassificationRule } from '../classification';
import { defineSource, SourcePartInput } from '../definition';
import { attributes, emit, requireDate } from '../mapping';
import { headerOf, sodaFieldsFor } from './common';

/**
 * The 44-column export (2026): `Problem (formerly Complaint Type)`, `Problem Detail (formerly
 * Descriptor)`, `Additional Details`, `Council District`, `Police Precinct` added, `BBL` moved. The
 * order and those names are confirmed; the coordinate and taxi names are taken from the older export.
 */
const HEADER = headerOf(
  'Unique Key,Created Date,Closed Date,Agency,Agency Name,Problem (formerly Complaint Type),Problem Detail (formerly Descriptor),Additional Details,Location Type,Incident Zip,Incident Address,Street Name,Cross Street 1,Cross Street 2,Intersection Street 1,Intersection Street 2,Address Type,City,Landmark,Facility Type,Status,Due Date,Resolution Description,Resolution Action Updated Date,Community Board,Council District,Police Precinct,BBL,Borough,X Coordinate (State Plane),Y Coordinate (State Plane),Open Data Channel Type,Park Facility Name,Park Borough,Vehicle Type,Taxi Company Borough,Taxi Pick Up Location,Bridge Highway Name,Bridge Highway Direction,Road Ramp,Bridge Highway Segment,Latitude,Longitude,Location',
);

/** The 41-column export (until 2026), also the layout of the 2010-2019 set. */
const HEADER_41 = headerOf(
  'Unique Key,Created Date,Closed Date,Agency,Agency Name,Complaint Type,Descriptor,Location Type,Incident Zip,Incident Address,Street Name,Cross Street 1,Cross Street 2,Intersection Street 1,Intersection Street 2,Address Type,City,Landmark,Facility Type,Status,Due Date,Resolution Description,Resolution Action Updated Date,Community Board,BBL,Borough,X Coordinate (State Plane),Y Coordinate (State Plane),Open Data Channel Type,Park Facility Name,Park Borough,Vehicle Type,Taxi Company Borough,Taxi Pick Up Location,Bridge Highway Name,Bridge Highway Direction,Road Ramp,Bridge Highway Segment,Latitude,Longitude,Location',
);

/** The mapper reads the older names; the SODA field names did not follow the 2026 rename. */
const ALIASES: Record<string, string> = {
  'Problem (formerly Complaint Type)': 'Complaint Type',
  'Problem Detail (formerly Descriptor)': 'Descriptor',
};

/** Agencies whose 311 requests can be about a building's condition. */
export const HOUSING_AGENCIES: ReadonlySet<string> = new Set(['HPD', 'DOB', 'DOHMH']);

function requestStatus(status: string | null): EventStatus | null {
  if (!status) return null;
  if (/^CLOSED$/i.test(status)) return 'closed';
  return /OPEN|ASSIGNED|PROGRESS|PENDING|STARTED/i.test(status) ? 'open' : null;
}

/** What both parts share: the 2010-2019 set is read with the same headers and mapper. */
const request: Omit<SourcePartInput, 'part' | 'datasetId' | 'fileNames'> = {
  header: HEADER,
  headerVariants: [HEADER_41],
  aliases: ALIASES,
  sodaFields: sodaFieldsFor([...HEADER_41, 'Additional Details', 'Council District', 'Police Precinct'], {
    'X Coordinate (State Plane)': 'x_coordinate_state_plane',
    'Y Coordinate (State Plane)': 'y_coordinate_state_plane',
    // published field name (docs/sources.md, "Field names")
    'Additional Details': 'descriptor_2',
  }),
  bbl: [{ kind: 'bbl_column', column: 'BBL' }],
  isRelevant: (f) => {
    const agency = f.upper('Agency');
    if (!agency || !HOUSING_AGENCIES.has(agency)) return 'not_housing_related';
    return hasClassificationRule('complaint_311', 'Complaint Type', f.text('Complaint Type')) ? null : 'not_housing_related';
  },
  recordKey: (f) => f.raw('Unique Key') || null,
  map: ({ f, event, recordKey }) => {
    const created = requireDate(f, 'Created Date');
    if (!created.ok) return created.outcome;
    const type = f.text('Complaint Type');
    const descriptor = f.text('Descriptor');
    const status = requestStatus(f.text('Status'));
    return emit([
      event({
        event_type: 'complaint_311',
        classify_by: [['Complaint Type', type]],
        status,
        occurred_on: created.date,
        closed_on: status === 'closed' ? f.date('Closed Date') : null,
        description: [type, descriptor].filter(Boolean).join(': ') || null,
        attributes: attributes({
          unique_key_311: recordKey,
          agency: f.upper('Agency'),
          complaint_type: type,
          descriptor,
          location_type: f.text('Location Type'),
          status: f.text('Status'),
          resolution_description: f.text('Resolution Description'),
          resolution_updated: f.date('Resolution Action Updated Date'),
          channel: f.text('Open Data Channel Type'),
        }),
      }),
    ]);
  },
};

/**
 * Only housing-related requests are events: agency HPD, DOB or DOHMH and a complaint type listed in
 * the classification table. Everything else (noise, parking...) is counted as not relevant.
 * Two data sets: 2020 to present (erm2-nwe9) and 2010-2019 (76ig-c548).
 * The Unique Key is also carried by HPD complaints: the loader counts a complaint once.
 */
export const nyc311 = defineSource({
  key: 'nyc311',
  name: '311 Service Requests (housing-related)',
  agency: '311 / DoITT',
  description: '311 service requests from 2010, kept when HPD, DOB or DOHMH handle a housing complaint type.',
  cadence: 'daily',
  components: ['complaint_burden'],
  produces: { events: ['complaint_311'], facts: [] },
  minimumRows: 1_000_000,
  parts: [
    {
      part: 'main',
      datasetId: 'erm2-nwe9',
      fileNames: ['nyc311_service_requests.csv', '311_service_requests.csv', 'nyc311.csv'],
      ...request,
    },
    {
      part: 'y2010_2019',
      datasetId: '76ig-c548',
      fileNames: ['311_service_requests_2010_2019.csv', 'nyc311_2010_2019.csv'],
      ...request,
    },
  ],
});
