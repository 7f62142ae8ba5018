import { EventStatus } from '@bhis/domain';
import { RowFields } from '../row-fields';
import { defineSource } from '../definition';
import { attributes, emit, requireDate } from '../mapping';
import { headerOf, sodaFieldsFor } from './common';

const HEADER = headerOf(
  "Job Filing Number,Filing Status,House No,Street Name,Borough,Block,LOT,Bin,Commmunity - Board,Work on Floor,Apt./Condo No(s),Applicant Professional Title,Applicant License #,Applicant First Name,Applicants Middle Initial,Applicant Last Name,Owner's Business Name,Applicant Street Name,Applicant City,Applicant State,Applicant Zip,Filing Representative First Name,Filing Representative Middle Initial,Filing Representative Last Name,Filing Representative Business Name,Filing Representative Street Name,Filing Representative City,Filing Representative State,Filing Representative Zip,Sprinkler (Work Type),Plumbing (Work Type),Stand Pipe (Work Type),Antenna (Work Type),Sign (Work Type),Curb Cut (Work Type),Fence (Work Type),Scaffold (Work Type),Shed (Work Type),Initial Cost,Total Construction Floor Area,Review Building Code,Little E,Unmapped/CCO Street,Request Legalization,Includes Permanent Removal,In Compliance with NYCECC,Exempt from NYCECC,Building Type,Existing Stories,Existing Height,Existing Dwelling Units,Proposed No of Stories,Proposed Height,Proposed Dwelling Units,SpecialInspectionRequirement,Special Inspection Agency Number,ProgressInspectionRequirement,Built 1 information value,Built 2 information value,Built 2 A information value,Built 2 B information value,Filing Date,Current Status Date,First Permit Date,Boiler Equipment (Work Type),Earth Work (Work Type),Foundation (Work Type),General Construction (Work Type),Mechanical Systems (Work Type),Place of Assembly (Work Type),Protection Mechanical Methods (Work Type),Sidewalk Shed (Work Type),Structural (Work Type),Support of Excavation (Work Type),Temporary Place of Assembly (Work Type),Green Roof (Work Type),Solar (Work Type),Full Demolition (Work Type) ,Suspended Scaffold (Work Type),Job Type,Latitude,Longitude,Postcode,Council District,Census Tract,BBL,NTA,Approved Date,Signoff Date,Applicant Business Name,Owner First Name,Owner Last Name,Owner Type,Job Description,Filing Review Type",
);

/** 85 columns (2025-08 to 2026-05): owner address, work-type flags without the ` (Work Type)` suffix. */
const HEADER_85 = headerOf(
  "Job Filing Number,Filing Status,House No,Street Name,Borough,Block,LOT,Bin,Commmunity - Board,Work on Floor,Apt./Condo No(s),Applicant Professional Title,Applicant License #,Applicant First Name,Applicants Middle Initial,Applicant Last Name,Owner's Business Name,Owner's Street Name,Owner's City,Owner's State,Owner's Zip,Filing Representative First Name,Filing Representative Middle Initial,Filing Representative Last Name,Filing Representative Business Name,Filing Representative Street Name,Filing Representative City,Filing Representative State,Filing Representative Zip,Sprinkler (Work Type),Plumbing (Work Type),Initial Cost,Total Construction Floor Area,Review Building Code,Little E,Unmapped/CCO Street,Request Legalization,Includes Permanent Removal,In Compliance with NYCECC,Exempt from NYCECC,Building Type,Existing Stories,Existing Height,Existing Dwelling Units,Proposed No of Stories,Proposed Height,Proposed Dwelling Units,SpecialInspectionRequirement,Special Inspection Agency Number,ProgressInspectionRequirement,Built 1 information value,Built 2 information value,Built 2 A information value,Built 2 B information value,Standpipe,Antenna,Curb Cut,Sign,Fence,Scaffold,Shed,Postcode,Latitude,Longitude,Council District,Census Tract,BBL,NTA,Filing Date,Current Status Date,First Permit Date,Boiler Equipment (Work Type),Earth Work (Work Type),Foundation (Work Type),General Construction (Work Type),Mechanical Systems (Work Type),Place of Assembly (Work Type),Protection Mechanical Methods (Work Type),Sidewalk Shed (Work Type),Structural (Work Type),Support of Excavation (Work Type),Temporary Place of Assembly (Work Type),Job Type,Approved Date,Signoff Date",
);
/** 83 columns (2025-01 to 2025-08): as the 85-column one without Approved Date and Signoff Date. */
const HEADER_83 = headerOf(
  "Job Filing Number,Filing Status,House No,Street Name,Borough,Block,LOT,Bin,Commmunity - Board,Work on Floor,Apt./Condo No(s),Applicant Professional Title,Applicant License #,Applicant First Name,Applicants Middle Initial,Applicant Last Name,Owner's Business Name,Owner's Street Name,Owner's City,Owner's State,Owner's Zip,Filing Representative First Name,Filing Representative Middle Initial,Filing Representative Last Name,Filing Representative Business Name,Filing Representative Street Name,Filing Representative City,Filing Representative State,Filing Representative Zip,Sprinkler (Work Type),Plumbing (Work Type),Initial Cost,Total Construction Floor Area,Review Building Code,Little E,Unmapped/CCO Street,Request Legalization,Includes Permanent Removal,In Compliance with NYCECC,Exempt from NYCECC,Building Type,Existing Stories,Existing Height,Existing Dwelling Units,Proposed No of Stories,Proposed Height,Proposed Dwelling Units,SpecialInspectionRequirement,Special Inspection Agency Number,ProgressInspectionRequirement,Built 1 information value,Built 2 information value,Built 2 A information value,Built 2 B information value,Standpipe,Antenna,Curb Cut,Sign,Fence,Scaffold,Shed,Postcode,Latitude,Longitude,Council District,Census Tract,BBL,NTA,Filing Date,Current Status Date,First Permit Date,Boiler Equipment (Work Type),Earth Work (Work Type),Foundation (Work Type),General Construction (Work Type),Mechanical Systems (Work Type),Place of Assembly (Work Type),Protection Mechanical Methods (Work Type),Sidewalk Shed (Work Type),Structural (Work Type),Support of Excavation (Work Type),Temporary Place of Assembly (Work Type),Job Type",
);
/**
 * 82 columns (until 2025-01): `City`, `State`, `Zip` of the owner, `Permit Issue Date`, and a geocoded
 * `BIN` beside the filing's `Bin` (the two differ only in case, so they match only as spelled).
 */
const HEADER_82 = headerOf(
  "Job Filing Number,Filing Status,House No,Street Name,Borough,Block,LOT,Bin,Commmunity - Board,Work on Floor,Apt./Condo No(s),Applicant Professional Title,Applicant License #,Applicant First Name,Applicants Middle Initial,Applicant Last Name,Owner's Business Name,Owner's Street Name,City,State,Zip,Filing Representative First Name,Filing Representative Middle Initial,Filing Representative Last Name,Filing Representative Business Name,Filing Representative Street Name,Filing Representative City,Filing Representative State,Filing Representative Zip,Sprinkler (Work Type),Plumbing (Work Type),Initial Cost,Total Construction Floor Area,Review Building Code,Little E,Unmapped/CCO Street,Request Legalization,Includes Permanent Removal,In Compliance with NYCECC,Exempt from NYCECC,Building Type,Existing Stories,Existing Height,Existing Dwelling Units,Proposed No of Stories,Proposed Height,Proposed Dwelling Units,SpecialInspectionRequirement,Special Inspection Agency Number,ProgressInspectionRequirement,Built 1 information value,Built 2 information value,Built 2 A information value,Built 2 B information value,Standpipe,Antenna,Curb Cut,Sign,Fence,Scaffold,Shed,Latitude,Longitude,Council District,Census Tract,NTA,BIN,Filing Date,Current Status Date,Permit Issue Date,Boiler Equipment (Work Type),Earth Work (Work Type),Foundation (Work Type),General Construction (Work Type),Mechanical Systems (Work Type),Place of Assembly (Work Type),Protection Mechanical Methods (Work Type),Sidewalk Shed (Work Type),Structural (Work Type),Support of Excavation (Work Type),Temporary Place of Assembly (Work Type),Job Type",
);

/** Older names of the columns the current header renamed. */
const ALIASES: Record<string, string> = {
  Standpipe: 'Stand Pipe (Work Type)',
  Antenna: 'Antenna (Work Type)',
  'Curb Cut': 'Curb Cut (Work Type)',
  Sign: 'Sign (Work Type)',
  Fence: 'Fence (Work Type)',
  Scaffold: 'Scaffold (Work Type)',
  Shed: 'Shed (Work Type)',
  'Permit Issue Date': 'First Permit Date',
  City: "Owner's City",
  State: "Owner's State",
  Zip: "Owner's Zip",
  BIN: 'GIS BIN',
};

/**
 * The filing statuses of the real rows (libs/sources/test-fixtures/current/dob_now_job_filings.csv).
 * Another status is counted in the run's unmapped values and read by its words.
 */
const FILING_STATUS: Readonly<Record<string, EventStatus>> = {
  'LOC ISSUED': 'closed',
  APPROVED: 'filed',
  'PERMIT ENTIRE': 'filed',
  OBJECTIONS: 'filed',
};

function filingStatus(f: RowFields, status: string | null): EventStatus {
  const listed = f.word('Filing Status', FILING_STATUS);
  if (listed !== null) return listed;
  const text = (status ?? '').toUpperCase();
  if (/SIGN.?OFF|LOC ISSUED|COMPLETED/.test(text)) return 'closed';
  if (/WITHDRAW/.test(text)) return 'dismissed';
  return 'filed';
}

/**
 * Published field names of the "(Work Type)" columns (docs/sources.md, "Field names"): Socrata kept
 * the trailing `_` of the `)`, and the seven columns renamed in 2026-06 kept their older field names.
 */
const PUBLISHED_WORK_TYPE_FIELDS: Record<string, string> = {
  ...Object.fromEntries(
    [
      'Boiler Equipment', 'Earth Work', 'Foundation', 'General Construction', 'Mechanical Systems', 'Place of Assembly',
      'Protection Mechanical Methods', 'Sidewalk Shed', 'Structural', 'Support of Excavation', 'Temporary Place of Assembly',
      'Green Roof', 'Solar', 'Full Demolition', 'Suspended Scaffold',
    ].map((work) => [`${work} (Work Type)`, `${work.toLowerCase().replace(/ /g, '_')}_work_type_`]),
  ),
  'Stand Pipe (Work Type)': 'standpipe',
  'Antenna (Work Type)': 'antenna',
  'Sign (Work Type)': 'sign',
  'Curb Cut (Work Type)': 'curb_cut',
  'Fence (Work Type)': 'fence',
  'Scaffold (Work Type)': 'scaffold',
  'Shed (Work Type)': 'shed',
};

export const dobNowJobFilings = defineSource({
  key: 'dob_now_job_filings',
  name: 'DOB NOW: Build Job Application Filings',
  agency: 'DOB',
  description: 'DOB NOW job filings: filing status, job type, work types, initial cost, dates.',
  cadence: 'daily',
  components: ['deferred_maintenance'],
  produces: { events: ['dob_now_job_filing'], facts: [] },
  minimumRows: 500_000,
  parts: [
    {
      part: 'main',
      datasetId: 'w9ak-ipjd',
      fileNames: ['dob_now_jobs.csv', 'dob_now_job_filings.csv'],
      header: HEADER,
      headerVariants: [HEADER_85, HEADER_83, HEADER_82],
      aliases: ALIASES,
      sodaFields: sodaFieldsFor(HEADER, { LOT: 'lot', 'Commmunity - Board': 'commmunity_board', ...PUBLISHED_WORK_TYPE_FIELDS }),
      bbl: [
        { kind: 'bbl_column', column: 'BBL' },
        { kind: 'borough_block_lot', borough: 'Borough', block: 'Block', lot: 'LOT' },
        { kind: 'bin', column: 'Bin' },
      ],
      recordKey: (f) => f.raw('Job Filing Number') || null,
      map: ({ f, event, recordKey }) => {
        const filed = requireDate(f, 'Filing Date');
        if (!filed.ok) return filed.outcome;
        const jobType = f.upper('Job Type');
        const status = f.text('Filing Status');
        return emit([
          event({
            event_type: 'dob_now_job_filing',
            classify_by: [['Job Type', jobType]],
            status: filingStatus(f, status),
            occurred_on: filed.date,
            closed_on: f.date('Signoff Date'),
            description: f.text('Job Description'),
            attributes: attributes({
              job_filing_number: recordKey,
              job_type: jobType,
              filing_status: status,
              current_status_date: f.date('Current Status Date'),
              first_permit_date: f.date('First Permit Date'),
              initial_cost: f.decimal('Initial Cost'),
              building_type: f.text('Building Type'),
              existing_dwelling_units: f.int('Existing Dwelling Units'),
              proposed_dwelling_units: f.int('Proposed Dwelling Units'),
              owner_type: f.text('Owner Type'),
              bin: f.bin('Bin'),
            }),
          }),
        ]);
      },
    },
  ],
});
