import type { Building } from '../buildings';
import { csvLine } from '../csv';
import { ymdCompact, ymdOf } from '../dates';
import type { DobViolation } from '../records';
import { HEADERS } from './headers';
import { bin, rowBuilder } from './row';

const build = rowBuilder(HEADERS.dob_violations);

/** Spaces inside numbered street names, as BIS pads them (`WEST   88 STREET`). */
export function bisStreet(street: string): string {
  return street.replace(/^(EAST|WEST|NORTH|SOUTH) (\d+) /, (_, dir: string, n: string) => `${dir} ${n.padStart(4, ' ')} `);
}

/** DOB (BIS) violation: BLOCK padded to 5, LOT to 5, dates as YYYYMMDD, status inside VIOLATION_CATEGORY. */
export function dobViolationLine(b: Building, v: DobViolation, asOf: number): string {
  const closed = v.closeDay <= asOf;
  const { year, month, day } = ymdOf(v.day);
  const stamp = `${String(month).padStart(2, '0')}${String(day).padStart(2, '0')}${String(year % 100).padStart(2, '0')}`;
  // an active violation is now and then in the category without a status word (docs/sources.md)
  const active = v.isn % 50 === 0 ? 'V%-DOB VIOLATION' : 'V-DOB VIOLATION - ACTIVE';
  const category = closed ? (v.dismissed ? 'V*-DOB VIOLATION - DISMISSED' : 'V*-DOB VIOLATION - Resolved') : active;
  return csvLine(
    build({
      ISN_DOB_BIS_VIOL: String(v.isn),
      BORO: String(b.borough.code),
      BIN: bin(b, v.binIndex),
      BLOCK: String(b.block).padStart(5, '0'),
      LOT: String(b.lot).padStart(5, '0'),
      ISSUE_DATE: ymdCompact(v.day),
      VIOLATION_TYPE_CODE: v.typeCode,
      VIOLATION_NUMBER: v.number,
      HOUSE_NUMBER: b.houseNumber,
      STREET: bisStreet(b.street),
      DISPOSITION_DATE: closed ? ymdCompact(v.closeDay) : '',
      DISPOSITION_COMMENTS: closed ? (v.dismissed ? 'CBUCIA CANCELLED, DUPLICATE' : `AOC SUBMITTED ON ${ymdCompact(v.closeDay)}`) : '',
      DEVICE_NUMBER: v.deviceNumber,
      DESCRIPTION: v.description,
      ECB_NUMBER: v.ecbNumber,
      NUMBER: `${closed ? 'V*' : 'V'}${stamp}${v.typeCode}${v.number}`,
      VIOLATION_CATEGORY: category,
      VIOLATION_TYPE: v.typeLabel,
    }),
  );
}
