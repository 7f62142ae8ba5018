import { EventStatus } from '@bhis/domain';
import { defineSource } from '../definition';
import { attributes, emit, requireDate } from '../mapping';
import { headerOf, sodaFieldsFor } from './common';

const HEADER = headerOf(
  'BIN,Violation Issue Date,Violation Number,Violation Type,Violation Remarks,Violation Status,Device Number,Device Type,Cycle End Date,Borough,Block,Lot,House Number,Street,City,State,Postcode,Latitude,Longitude,Community Board,Council District,BBL,Census Tract (2020),Neighborhood Tabulation Area (NTA) (2020)',
);

/** Before 2024-05: no geography columns, `Zip` for the postcode. */
const HEADER_2023 = headerOf(
  'BIN,Violation Issue Date,Violation Number,Violation Type,Violation Remarks,Violation Status,Device Number,Device Type,Cycle End Date,Borough,Block,Lot,House Number,Street,City,State,Zip',
);

/**
 * Every status word of the set, mapped explicitly (null: not a state of the violation). The 2026
 * vocabulary (docs/sources.md): `Active`, `Dismissed`, `Disputed Successfully`, `Waived - Pending
 * Dismissal`, `Pending Dismissal`, `Cured`, `Paid  - Pending Dismissal` (two spaces, collapsed when
 * read). A violation pending dismissal was waived, paid or cured and waits only for the formal
 * dismissal: it is no longer open, and counted resolved.
 */
export const SAFETY_STATUS: Readonly<Record<string, EventStatus | null>> = {
  ACTIVE: 'open',
  OPEN: 'open',
  'IN PROGRESS': 'open',
  RESOLVED: 'resolved',
  CURED: 'resolved',
  CERTIFIED: 'resolved',
  'PENDING DISMISSAL': 'resolved',
  'WAIVED - PENDING DISMISSAL': 'resolved',
  'PAID - PENDING DISMISSAL': 'resolved',
  CLOSED: 'closed',
  COMPLIED: 'closed',
  DISMISSED: 'dismissed',
  'DISPUTED SUCCESSFULLY': 'dismissed',
  VACATED: 'dismissed',
};

export const dobSafetyViolations = defineSource({
  key: 'dob_safety_violations',
  name: 'DOB Safety Violations (DOB NOW)',
  agency: 'DOB',
  description: 'DOB NOW safety violations (boilers, elevators, facades...): issue date, type, status, device.',
  cadence: 'daily',
  components: ['building_safety', 'management_quality'],
  produces: { events: ['dob_safety_violation'], facts: [] },
  minimumRows: 500_000,
  parts: [
    {
      part: 'main',
      datasetId: '855j-jady',
      fileNames: ['dob_safety_violations.csv'],
      header: HEADER,
      headerVariants: [HEADER_2023],
      aliases: { Zip: 'Postcode' },
      // published field names (docs/sources.md, "Field names"): Socrata kept the trailing `_` of the `)`
      sodaFields: sodaFieldsFor(HEADER, {
        Postcode: 'zip',
        'Census Tract (2020)': 'census_tract_2020_',
        'Neighborhood Tabulation Area (NTA) (2020)': 'neighborhood_tabulation_area_nta_2020_',
      }),
      bbl: [
        { kind: 'bbl_column', column: 'BBL' },
        { kind: 'borough_block_lot', borough: 'Borough', block: 'Block', lot: 'Lot' },
        { kind: 'bin', column: 'BIN' },
      ],
      recordKey: (f) => f.raw('Violation Number') || null,
      map: ({ f, event }) => {
        const issued = requireDate(f, 'Violation Issue Date');
        if (!issued.ok) return issued.outcome;
        const type = f.upper('Violation Type');
        const deviceType = f.text('Device Type');
        return emit([
          event({
            event_type: 'dob_safety_violation',
            classify_by: [
              ['Violation Type', type],
              ['Device Type', deviceType],
            ],
            status: f.word('Violation Status', SAFETY_STATUS),
            occurred_on: issued.date,
            description: f.text('Violation Remarks') ?? `${deviceType ?? 'Safety'} violation ${type ?? ''}`.trim(),
            attributes: attributes({
              violation_number: f.text('Violation Number'),
              violation_type: type,
              violation_status: f.text('Violation Status'),
              device_number: f.text('Device Number'),
              device_type: deviceType,
              cycle_end_date: f.date('Cycle End Date'),
              bin: f.bin('BIN'),
            }),
          }),
        ]);
      },
    },
  ],
});
