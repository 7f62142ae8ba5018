import type { Building } from '../buildings';
import { csvLine } from '../csv';
import { mdy, mdyTime } from '../dates';
import type { DobComplaint } from '../records';
import { HEADERS } from './headers';
import { bin, dobCommunityBoard, rowBuilder } from './row';

const build = rowBuilder(HEADERS.dob_complaints);

/**
 * The complaint number as DOB writes it: digits, and for one complaint in twenty (chosen by its
 * number) the second digit written as a letter (`4A28951`), as DOB's newer numbers are. The mapping is
 * one-to-one and no such number is all digits, so every complaint keeps a number of its own.
 */
export function complaintNumber(n: number): string {
  const digits = String(n);
  if (n % 20 !== 0 || digits.length < 3) return digits;
  return `${digits[0]}${String.fromCharCode(65 + Number(digits[1]))}${digits.slice(2)}`;
}

/** DOB complaint: BIN only (no BBL); house number and street padded with spaces to fixed widths. */
export function dobComplaintLine(b: Building, c: DobComplaint, asOf: number): string {
  const closed = c.closeDay <= asOf;
  const inspected = c.inspectionDay <= asOf;
  const lastChange = closed ? c.closeDay : inspected ? c.inspectionDay : c.day;
  return csvLine(
    build({
      'Complaint Number': complaintNumber(c.number),
      Status: closed ? 'CLOSED' : 'ACTIVE',
      'Date Entered': mdy(c.day),
      'House Number': b.houseNumber.padEnd(12, ' '),
      'House Street': b.street.padEnd(32, ' '),
      BIN: c.placeholderBin ? `${b.borough.code}000000` : bin(b, c.binIndex),
      'Community Board': dobCommunityBoard(b),
      'Special District': '   ',
      'Complaint Category': c.category,
      Unit: c.unit,
      'Disposition Date': closed ? mdy(c.closeDay) : '',
      'Disposition Code': closed ? c.dispositionCode : '  ',
      'Inspection Date': inspected ? mdy(c.inspectionDay) : '',
      DOBRunDate: mdyTime(Math.min(asOf, lastChange + 1), 0),
    }),
  );
}
