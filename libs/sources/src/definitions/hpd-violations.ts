import { defineSource } from '../definition';
import { attributes, emit, recordIdValue, requireDate } from '../mapping';
import { headerOf, sodaFieldsFor, STATUS_WORDS } from './common';

const HEADER = headerOf(
  'ViolationID,BuildingID,RegistrationID,BoroID,Borough,HouseNumber,LowHouseNumber,HighHouseNumber,StreetName,StreetCode,Postcode,Apartment,Story,Block,Lot,Class,InspectionDate,ApprovedDate,OriginalCertifyByDate,OriginalCorrectByDate,NewCertifyByDate,NewCorrectByDate,CertifiedDate,OrderNumber,NOVID,NOVDescription,NOVIssuedDate,CurrentStatusID,CurrentStatus,CurrentStatusDate,NovType,ViolationStatus,RentImpairing,Latitude,Longitude,CommunityBoard,CouncilDistrict,CensusTract,BIN,BBL,NTA',
);

/** Before 2020-11: no RentImpairing. */
const HEADER_2020 = HEADER.filter((name) => name !== 'RentImpairing');

const SECTION = /(?:SECTION|SEC\.|§+)\s*(27-\d{4}(?:\.\d+)?)/i;

/** The Housing Maintenance Code section a NOV cites first (`SECTION 27-2005 ADM CODE`, `§ 27-2017.3 HMC`). */
export function hmcSection(description: string | null): string | null {
  return description ? (SECTION.exec(description)?.[1] ?? null) : null;
}

export const hpdViolations = defineSource({
  key: 'hpd_violations',
  name: 'Housing Maintenance Code Violations',
  agency: 'HPD',
  description: 'HPD violations, class A/B/C/I, with order number, NOV text and status (Open/Close, changed in place).',
  cadence: 'daily',
  components: ['living_conditions', 'building_safety', 'deferred_maintenance', 'management_quality', 'legal_enforcement'],
  produces: { events: ['hpd_violation'], facts: [] },
  minimumRows: 10_000_000,
  parts: [
    {
      part: 'main',
      datasetId: 'wvxf-dwi5',
      fileNames: ['hpd_violations.csv'],
      header: HEADER,
      headerVariants: [HEADER_2020],
      sodaFields: sodaFieldsFor(HEADER, { Borough: 'boro', Postcode: 'zip' }),
      bbl: [
        { kind: 'bbl_column', column: 'BBL' },
        { kind: 'borough_block_lot', borough: 'BoroID', block: 'Block', lot: 'Lot' },
        { kind: 'bin', column: 'BIN' },
      ],
      recordKey: (f) => f.raw('ViolationID') || null,
      map: ({ f, event, recordKey }) => {
        const inspected = requireDate(f, 'InspectionDate', 'NOVIssuedDate', 'ApprovedDate');
        if (!inspected.ok) return inspected.outcome;
        const violationClass = f.upper('Class');
        const orderNumber = f.text('OrderNumber');
        const novDescription = f.text('NOVDescription');
        const section = hmcSection(novDescription);
        const status = f.word('ViolationStatus', STATUS_WORDS);
        const currentStatus = f.upper('CurrentStatus');
        return emit([
          event({
            event_type: 'hpd_violation',
            classify_by: [
              ['OrderNumber', orderNumber],
              ['code section', section],
              ['Class', violationClass],
            ],
            status,
            occurred_on: inspected.date,
            // The set has no closing date: the date of the current status is the best available.
            closed_on: status === 'closed' ? f.date('CurrentStatusDate') : null,
            description: novDescription,
            attributes: attributes({
              violation_id: recordIdValue(recordKey),
              class: violationClass,
              order_number: orderNumber,
              code_section: section,
              nov_id: f.text('NOVID'),
              nov_type: f.text('NovType'),
              nov_issued_date: f.date('NOVIssuedDate'),
              current_status: f.text('CurrentStatus'),
              current_status_id: f.int('CurrentStatusID'),
              // the owner certified a correction HPD found false or invalid, or certified after the deadline
              false_certification: currentStatus ? /(FALSE|INVALID) CERTIF/.test(currentStatus) : null,
              certified_late: currentStatus ? /LATE/.test(currentStatus) && /CERTIF/.test(currentStatus) : null,
              original_certify_by_date: f.date('OriginalCertifyByDate'),
              new_certify_by_date: f.date('NewCertifyByDate'),
              new_correct_by_date: f.date('NewCorrectByDate'),
              current_status_date: f.date('CurrentStatusDate'),
              apartment: f.text('Apartment'),
              story: f.text('Story'),
              rent_impairing: f.bool('RentImpairing'),
              original_correct_by_date: f.date('OriginalCorrectByDate'),
              certified_date: f.date('CertifiedDate'),
              building_id: f.int('BuildingID'),
              registration_id: f.int('RegistrationID') || null,
              bin: f.bin('BIN'),
            }),
          }),
        ]);
      },
    },
  ],
});
