import { defineSource } from '../definition';
import { attributes, emit, requireDate } from '../mapping';
import { headerOf, sodaFieldsFor, STATUS_WORDS } from './common';

const HEADER = headerOf(
  'Complaint Number,Status,Date Entered,House Number,ZIP Code,House Street,BIN,Community Board,Special District,Complaint Category,Unit,Disposition Date,Disposition Code,Inspection Date,DOBRunDate',
);

/** BIN only: the BBL comes from the BIN->BBL map (the set is replaced whole every day). */
export const dobComplaints = defineSource({
  key: 'dob_complaints',
  name: 'DOB Complaints Received',
  agency: 'DOB',
  description: 'Complaints to DOB: BIN, two-character category code, status, disposition.',
  cadence: 'daily',
  refresh: 'whole_replace',
  components: ['complaint_burden', 'building_safety'],
  produces: { events: ['dob_complaint'], facts: [] },
  minimumRows: 2_500_000,
  parts: [
    {
      part: 'main',
      datasetId: 'eabe-havv',
      fileNames: ['dob_complaints.csv'],
      header: HEADER,
      sodaFields: sodaFieldsFor(HEADER),
      bbl: [{ kind: 'bin', column: 'BIN' }],
      recordKey: (f) => f.raw('Complaint Number') || null,
      map: ({ f, event, recordKey }) => {
        const entered = requireDate(f, 'Date Entered');
        if (!entered.ok) return entered.outcome;
        const category = f.upper('Complaint Category');
        const status = f.word('Status', STATUS_WORDS);
        return emit([
          event({
            event_type: 'dob_complaint',
            classify_by: [['Complaint Category', category]],
            status,
            occurred_on: entered.date,
            closed_on: status === 'closed' ? f.date('Disposition Date') : null,
            description: category ? `DOB complaint, category ${category}` : 'DOB complaint',
            attributes: attributes({
              complaint_number: recordKey,
              complaint_category: category,
              unit: f.text('Unit'),
              disposition_code: f.text('Disposition Code'),
              disposition_date: f.date('Disposition Date'),
              inspection_date: f.date('Inspection Date'),
              bin: f.bin('BIN'),
            }),
          }),
        ]);
      },
    },
  ],
});
