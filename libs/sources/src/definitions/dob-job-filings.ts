import { EventStatus } from '@bhis/domain';
import { RowFields } from '../row-fields';
import { defineSource } from '../definition';
import { attributes, compositeKey, emit, requireDate } from '../mapping';
import { headerOf, sodaFieldsFor } from './common';

const HEADER = headerOf(
  "JOB_S1_NO,Job #,Doc #,Borough,House #,Street Name,Block,Lot,Bin #,TOTAL_CONSTRUCTION_FLOOR_AREA,Job Type,Job Status,Job Status Descrp,Latest Action Date,Building Type,Community - Board,Cluster,Landmarked,Adult Estab,Loft Board,City Owned,Little e,PC Filed,eFiling Filed,Plumbing,Mechanical,Boiler,Fuel Burning,Fuel Storage,Standpipe,Sprinkler,Fire Alarm,Equipment,Fire Suppression,Curb Cut,Other,Other Description,WITHDRAWAL_FLAG,Applicant's First Name,Applicant's Last Name,Applicant Professional Title,Applicant License #,Professional Cert,Pre- Filing Date,Paid,Fully Paid,Assigned,Approved,Fully Permitted,SIGNOFF_DATE,SPECIAL_ACTION_STATUS,SPECIAL_ACTION_DATE,Initial Cost,Total Est. Fee,Fee Status,Existing Zoning Sqft,Proposed Zoning Sqft,Horizontal Enlrgmt,Vertical Enlrgmt,Enlargement SQ Footage,Street Frontage,ExistingNo. of Stories,Proposed No. of Stories,Existing Height,Proposed Height,Existing Dwelling Units,Proposed Dwelling Units,Existing Occupancy,Proposed Occupancy,Site Fill,Zoning Dist1,Zoning Dist2,Zoning Dist3,Special District 1,Special District 2,Owner Type,Non-Profit,Owner's First Name,Owner's Last Name,Owner's Business Name,Owner's House Number,Owner'sHouse Street Name,City ,State,Zip,BUILDING_CLASS,Job Description,JOB_NO_GOOD_COUNT,LATITUDE,LONGITUDE,COUNCIL DISTRICT,CENSUS TRACT,NTA,BBL,DOBRunDate",
);

/**
 * 96 columns (2018-04 to 2026-05): JOB_S1_NO last, `Owner'sPhone #`, and geocoded GIS_* columns
 * where the current header has LATITUDE ... BBL.
 */
const HEADER_96 = headerOf(
  "Job #,Doc #,Borough,House #,Street Name,Block,Lot,Bin #,Job Type,Job Status,Job Status Descrp,Latest Action Date,Building Type,Community - Board,Cluster,Landmarked,Adult Estab,Loft Board,City Owned,Little e,PC Filed,eFiling Filed,Plumbing,Mechanical,Boiler,Fuel Burning,Fuel Storage,Standpipe,Sprinkler,Fire Alarm,Equipment,Fire Suppression,Curb Cut,Other,Other Description,Applicant's First Name,Applicant's Last Name,Applicant Professional Title,Applicant License #,Professional Cert,Pre- Filing Date,Paid,Fully Paid,Assigned,Approved,Fully Permitted,Initial Cost,Total Est. Fee,Fee Status,Existing Zoning Sqft,Proposed Zoning Sqft,Horizontal Enlrgmt,Vertical Enlrgmt,Enlargement SQ Footage,Street Frontage,ExistingNo. of Stories,Proposed No. of Stories,Existing Height,Proposed Height,Existing Dwelling Units,Proposed Dwelling Units,Existing Occupancy,Proposed Occupancy,Site Fill,Zoning Dist1,Zoning Dist2,Zoning Dist3,Special District 1,Special District 2,Owner Type,Non-Profit,Owner's First Name,Owner's Last Name,Owner's Business Name,Owner's House Number,Owner'sHouse Street Name,City ,State,Zip,Owner'sPhone #,Job Description,DOBRunDate,JOB_S1_NO,TOTAL_CONSTRUCTION_FLOOR_AREA,WITHDRAWAL_FLAG,SIGNOFF_DATE,SPECIAL_ACTION_STATUS,SPECIAL_ACTION_DATE,BUILDING_CLASS,JOB_NO_GOOD_COUNT,GIS_LATITUDE,GIS_LONGITUDE,GIS_COUNCIL_DISTRICT,GIS_CENSUS_TRACT,GIS_NTA_NAME,GIS_BIN",
);

/**
 * The job status descriptions of the real rows (libs/sources/test-fixtures/current/dob_job_filings.csv).
 * Another description is counted in the run's unmapped values and read by its words.
 */
const JOB_STATUS: Readonly<Record<string, EventStatus>> = {
  'SIGNED OFF': 'closed',
  COMPLETED: 'closed',
  'PERMIT ISSUED - ENTIRE JOB/WORK': 'filed',
  'PERMIT ISSUED - PARTIAL JOB': 'filed',
  'PLAN EXAM - DISAPPROVED': 'filed',
  'PLAN EXAM - APPROVED': 'filed',
  'PLAN EXAM - IN PROCESS': 'filed',
  'APPLICATION PROCESSED - ENTIRE': 'filed',
  'APPLICATION PROCESSED - NO PLAN EXAM': 'filed',
};

function jobStatus(f: RowFields, description: string | null, withdrawn: boolean): EventStatus {
  const listed = f.word('Job Status Descrp', JOB_STATUS);
  if (withdrawn) return 'dismissed';
  if (listed !== null) return listed;
  return /SIGNED OFF|COMPLETED/i.test(description ?? '') ? 'closed' : 'filed';
}

/**
 * The column named `BBL` in the 2026 layout holds a 7-digit BIN (the former GIS_BIN), never a BBL:
 * the BBL is built from borough/block/lot, then the BIN; the `BBL` column is kept only as `gis_bin`.
 */
export const dobJobFilings = defineSource({
  key: 'dob_job_filings',
  name: 'DOB Job Application Filings (BIS)',
  agency: 'DOB',
  description: 'Job filings: job type (A1/A2/A3/NB/DM), status, dates, work flags, initial cost.',
  cadence: 'daily',
  components: ['deferred_maintenance'],
  produces: { events: ['dob_job_filing'], facts: [] },
  minimumRows: 2_000_000,
  parts: [
    {
      part: 'main',
      datasetId: 'ic3t-wcy2',
      fileNames: ['dobjobs.csv', 'dob_job_filings.csv'],
      header: HEADER,
      headerVariants: [HEADER_96],
      sodaFields: sodaFieldsFor(HEADER, {
        'Job #': 'job__',
        'Doc #': 'doc__',
        'House #': 'house__',
        'Bin #': 'bin__',
        'Pre- Filing Date': 'pre__filing_date',
        'Initial Cost': 'initial_cost',
        'Job Status Descrp': 'job_status_descrp',
      }),
      bbl: [
        { kind: 'borough_block_lot', borough: 'Borough', block: 'Block', lot: 'Lot' },
        { kind: 'bin', column: 'Bin #' },
      ],
      recordKey: (f) => compositeKey(f.raw('Job #'), f.raw('Doc #')),
      map: ({ f, event }) => {
        const filed = requireDate(f, 'Pre- Filing Date', 'Latest Action Date');
        if (!filed.ok) return filed.outcome;
        const jobType = f.upper('Job Type');
        const statusText = f.text('Job Status Descrp');
        return emit([
          event({
            event_type: 'dob_job_filing',
            classify_by: [['Job Type', jobType]],
            status: jobStatus(f, statusText, f.raw('WITHDRAWAL_FLAG') === '1'),
            occurred_on: filed.date,
            closed_on: f.date('SIGNOFF_DATE'),
            description: f.text('Job Description'),
            attributes: attributes({
              job_number: f.text('Job #'),
              doc_number: f.text('Doc #'),
              job_type: jobType,
              job_status: f.text('Job Status'),
              job_status_description: statusText,
              latest_action_date: f.date('Latest Action Date'),
              fully_permitted: f.date('Fully Permitted'),
              signoff_date: f.date('SIGNOFF_DATE'),
              initial_cost: f.decimal('Initial Cost'),
              building_type: f.text('Building Type'),
              existing_dwelling_units: f.int('Existing Dwelling Units'),
              proposed_dwelling_units: f.int('Proposed Dwelling Units'),
              owner_business_name: f.text("Owner's Business Name"),
              bin: f.bin('Bin #'),
              gis_bin: f.bin('BBL') ?? f.bin('GIS_BIN'),
            }),
          }),
        ]);
      },
    },
  ],
});
