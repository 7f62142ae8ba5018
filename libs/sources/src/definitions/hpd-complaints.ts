import { defineSource } from '../definition';
import { attributes, emit, requireDate } from '../mapping';
import { headerOf, sodaFieldsFor, STATUS_WORDS } from './common';

const HEADER = headerOf(
  'Received Date,Problem ID,Complaint ID,Building ID,Borough,House Number,Street Name,Post Code,Block,Lot,Apartment,Community Board,Unit Type,Space Type,Type,Major Category,Minor Category,Problem Code,Complaint Status,Complaint Status Date,Problem Status,Problem Status Date,Status Description,Problem Duplicate Flag,Complaint Anonymous Flag,Unique Key,Latitude,Longitude,Council District,Census Tract,BIN,BBL,NTA',
);

/**
 * One event per problem row, keyed by the COMPLAINT id: rows of the same complaint share
 * source_record_id and the loader merges them (libs/ingestion merge-events.ts) by concatenating
 * `attributes.problems` and `attributes.unique_keys_311`.
 */
export const hpdComplaints = defineSource({
  key: 'hpd_complaints',
  name: 'Housing Maintenance Code Complaints and Problems',
  agency: 'HPD',
  description: 'HPD complaints, one row per problem: type (emergency...), major/minor category, statuses.',
  cadence: 'daily',
  components: ['complaint_burden', 'living_conditions'],
  produces: { events: ['hpd_complaint'], facts: [] },
  minimumRows: 10_000_000,
  parts: [
    {
      part: 'main',
      datasetId: 'ygpa-z7cr',
      fileNames: ['hpd_complaints_and_problems.csv', 'hpd_complaints.csv'],
      header: HEADER,
      sodaFields: sodaFieldsFor(HEADER),
      bbl: [
        { kind: 'bbl_column', column: 'BBL' },
        { kind: 'borough_block_lot', borough: 'Borough', block: 'Block', lot: 'Lot' },
        { kind: 'bin', column: 'BIN' },
      ],
      recordKey: (f) => f.raw('Complaint ID') || null,
      map: ({ f, event }) => {
        const received = requireDate(f, 'Received Date');
        if (!received.ok) return received.outcome;
        const status = f.word('Complaint Status', STATUS_WORDS);
        const uniqueKey = f.text('Unique Key');
        const major = f.upper('Major Category');
        const minor = f.upper('Minor Category');
        const problem = attributes({
          problem_id: f.int('Problem ID'),
          unit_type: f.text('Unit Type'),
          space_type: f.text('Space Type'),
          type: f.upper('Type'),
          major_category: major,
          minor_category: minor,
          problem_code: f.text('Problem Code'),
          status: f.text('Problem Status'),
          status_date: f.date('Problem Status Date'),
          duplicate: f.bool('Problem Duplicate Flag'),
          unique_key_311: uniqueKey,
        });
        return emit([
          event({
            event_type: 'hpd_complaint',
            classify_by: [
              ['Type', f.text('Type')],
              ['Minor Category', minor],
              ['Major Category', major],
            ],
            status,
            occurred_on: received.date,
            closed_on: status === 'closed' ? f.date('Complaint Status Date') : null,
            description: [major, minor].filter(Boolean).join(': ') || null,
            attributes: attributes({
              complaint_id: f.int('Complaint ID'),
              building_id: f.int('Building ID'),
              apartment: f.text('Apartment'),
              anonymous: f.bool('Complaint Anonymous Flag'),
              status_description: f.text('Status Description'),
              unique_key_311: uniqueKey,
              unique_keys_311: uniqueKey ? [uniqueKey] : [],
              problems: [problem],
              bin: f.bin('BIN'),
            }),
          }),
        ]);
      },
    },
  ],
});
