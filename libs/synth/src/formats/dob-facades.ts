import type { Building } from '../buildings';
import { csvLine } from '../csv';
import { mdy } from '../dates';
import type { FacadeFiling } from '../records';
import { HEADERS } from './headers';
import { bin, rowBuilder } from './row';

const build = rowBuilder(HEADERS.dob_facades);

/** FISP (Local Law 11) filing: SAFE / SWARMP / UNSAFE / No Report Filed. */
export function dobFacadeLine(b: Building, f: FacadeFiling, asOf: number): string {
  const corrected = f.correctedDay <= asOf;
  return csvLine(
    build({
      tr6_no: f.tr6,
      control_no: String(f.controlNumber),
      filing_type: f.status === 'No Report Filed' ? '' : corrected ? 'AMENDED' : 'INITIAL',
      cycle: String(f.cycle),
      bin: bin(b, f.binIndex),
      house_no: b.houseNumber,
      street_name: b.street,
      borough: b.borough.upper,
      block: String(b.block),
      lot: String(b.lot),
      filing_date: mdy(f.day), // for 'No Report Filed': the day the cycle's filing was due
      filing_status: f.status,
      current_status: corrected ? 'SAFE' : f.status === 'No Report Filed' ? 'No Report Filed' : `Accepted - ${f.status}`,
      submitted_on: f.status === 'No Report Filed' ? '' : mdy(corrected ? f.correctedDay : f.day),
    }),
  );
}
