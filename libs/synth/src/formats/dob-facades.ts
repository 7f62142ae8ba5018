import type { Building } from '../buildings';
import { csvLine } from '../csv';
import { mdy } from '../dates';
import type { FacadeFiling } from '../records';
import { HEADERS } from './headers';
import { bin, rowBuilder } from './row';

const build = rowBuilder(HEADERS.dob_facades);

/**
 * FISP (Local Law 11) filing in the export's upper-case layout: SAFE / SWARMP / UNSAFE, or an
 * `Auto-Generated` row with `No Report Filed` for a building that owes its report. The synthetic
 * city models no penalties: the three amount columns are written as 0, as on most real rows.
 */
export function dobFacadeLine(b: Building, f: FacadeFiling, asOf: number): string {
  const corrected = f.correctedDay <= asOf;
  const owed = f.status === 'No Report Filed';
  return csvLine(
    build({
      TR6_NO: f.tr6,
      CONTROL_NO: String(f.controlNumber),
      FILING_TYPE: owed ? 'Auto-Generated' : 'Initial',
      CYCLE: String(f.cycle),
      BIN: bin(b, f.binIndex),
      HOUSE_NO: b.houseNumber,
      STREET_NAME: b.street,
      BOROUGH: b.borough.upper,
      BLOCK: String(b.block),
      LOT: String(b.lot),
      SEQUENCE_NO: '1',
      SUBMITTED_ON: owed ? '' : mdy(corrected ? f.correctedDay : f.day),
      // where the cycle stands: the corrected report's status once it is in
      CURRENT_STATUS: corrected ? 'SAFE' : f.status,
      FILING_DATE: mdy(f.day), // for 'No Report Filed': the day the cycle's filing was due
      FILING_STATUS: f.status,
      LATE_FILING_AMT: '0',
      FAILURE_TO_FILE_AMT: '0',
      FAILURE_TO_COLLECT_AMT: '0',
      COMMENTS: corrected ? `AMENDED REPORT ACCEPTED ${mdy(f.correctedDay)}` : '',
    }),
  );
}
