import type { Building } from '../buildings';
import { csvLine } from '../csv';
import { ymdCompact } from '../dates';
import type { EcbViolation } from '../records';
import { bisStreet } from './dob-violations';
import { HEADERS } from './headers';
import { bin, money, rowBuilder } from './row';

const build = rowBuilder(HEADERS.dob_ecb_violations);

/** ECB violation: ACTIVE until resolved, balance due until paid; LOT padded to 4 (sometimes 5) digits. */
export function ecbViolationLine(b: Building, v: EcbViolation, asOf: number): string {
  const resolved = v.resolveDay <= asOf;
  const paid = v.paidDay <= asOf;
  const heard = v.hearingDay <= asOf;
  const amountPaid = paid ? v.penalty : v.partialPaid;
  const penalty = heard ? v.penalty : 0;
  return csvLine(
    build({
      ISN_DOB_BIS_EXTRACT: String(v.isn),
      ECB_VIOLATION_NUMBER: v.ecbNumber,
      ECB_VIOLATION_STATUS: resolved ? 'RESOLVE' : 'ACTIVE',
      DOB_VIOLATION_NUMBER: v.dobNumber,
      BIN: bin(b, v.binIndex),
      BORO: String(b.borough.code),
      BLOCK: String(b.block).padStart(5, '0'),
      LOT: String(b.lot).padStart(v.fiveDigitLot ? 5 : 4, '0'),
      HEARING_DATE: ymdCompact(v.hearingDay),
      HEARING_TIME: v.isn % 3 === 0 ? '1030' : v.isn % 3 === 1 ? '900' : '830',
      SERVED_DATE: ymdCompact(v.day),
      ISSUE_DATE: ymdCompact(v.day),
      SEVERITY: v.severity,
      VIOLATION_TYPE: v.violationType,
      RESPONDENT_NAME: b.owner.name.slice(0, 25),
      RESPONDENT_HOUSE_NUMBER: b.owner.businessHouseNumber || b.houseNumber,
      RESPONDENT_STREET: bisStreet(b.owner.businessStreet || b.street),
      RESPONDENT_CITY: b.owner.businessCity || b.borough.upper,
      RESPONDENT_ZIP: b.owner.businessZip || b.zip,
      VIOLATION_DESCRIPTION: `${v.description}. NOTED AT ${b.houseNumber} ${b.street}`,
      PENALITY_IMPOSED: money(penalty),
      AMOUNT_PAID: money(amountPaid),
      BALANCE_DUE: money(Math.max(0, penalty - amountPaid)),
      INFRACTION_CODE1: v.infractionCode,
      SECTION_LAW_DESCRIPTION1: `${v.section.padEnd(76, ' ')}${v.description}`,
      AGGRAVATED_LEVEL: 'NO',
      HEARING_STATUS: heard ? v.hearingStatus : 'PENDING',
      CERTIFICATION_STATUS: resolved ? 'CERTIFICATE ACCEPTED' : 'NO COMPLIANCE RECORDED',
    }),
  );
}
