import type { ComplaintProblem, ViolationCode } from './catalog';

/**
 * What the simulation emits: one record per public-record row (or group of rows), with its whole
 * life cycle (closing, rescinding, paying dates). The writers render a record as its file shows it
 * on the as-of date, which is how a later snapshot shows the same record with a changed status.
 */

/** A date that never comes (still open). */
export const NEVER = Number.POSITIVE_INFINITY;

interface Dated {
  /** day number of the occurrence (the date that decides whether the record exists on the as-of date) */
  readonly day: number;
}

export interface HpdViolation extends Dated {
  readonly id: number;
  readonly novId: number;
  readonly code: ViolationCode;
  readonly binIndex: number;
  readonly apartment: string;
  readonly story: string;
  readonly closeDay: number;
  /** the owner certified a correction on this day (NEVER if not) */
  readonly certifiedDay: number;
  /** dismissed instead of closed */
  readonly dismissed: boolean;
  /** render with an unquoted comma in the description: one column too many */
  readonly malformed: boolean;
}

export interface HpdProblem {
  readonly problemId: number;
  readonly uniqueKey: number;
  readonly problem: ComplaintProblem;
  readonly outcome: 'violation' | 'no_violation' | 'no_access' | 'corrected';
}

export interface HpdComplaint extends Dated {
  readonly complaintId: number;
  readonly binIndex: number;
  readonly apartment: string;
  readonly anonymous: boolean;
  readonly problems: readonly HpdProblem[];
  readonly closeDay: number;
}

export interface Nyc311Request extends Dated {
  readonly uniqueKey: number;
  readonly second: number;
  readonly agency: string;
  readonly agencyName: string;
  readonly complaintType: string;
  readonly descriptor: string;
  readonly closeDay: number;
  readonly closeSecond: number;
  readonly channel: string;
  readonly resolution: string;
  /** BBL as written: normally the lot's, sometimes blank, rarely broken (borough 0) */
  readonly bblMode: 'normal' | 'blank' | 'borough0';
}

export interface DobComplaint extends Dated {
  readonly number: number;
  readonly binIndex: number;
  readonly category: string;
  readonly unit: string;
  readonly closeDay: number;
  readonly inspectionDay: number;
  readonly dispositionCode: string;
  /** write a placeholder BIN (borough digit + 000000) */
  readonly placeholderBin: boolean;
}

export interface DobViolation extends Dated {
  readonly isn: number;
  readonly binIndex: number;
  readonly typeCode: string;
  readonly typeLabel: string;
  readonly number: string;
  readonly deviceNumber: string;
  readonly description: string;
  readonly ecbNumber: string;
  readonly closeDay: number;
  readonly dismissed: boolean;
}

export interface EcbViolation extends Dated {
  readonly isn: number;
  readonly ecbNumber: string;
  readonly dobNumber: string;
  readonly binIndex: number;
  readonly hearingDay: number;
  readonly severity: string;
  readonly violationType: string;
  readonly infractionCode: string;
  readonly section: string;
  readonly description: string;
  readonly penalty: number;
  /** the penalty is paid in full on this day (NEVER if not) */
  readonly paidDay: number;
  readonly partialPaid: number;
  readonly resolveDay: number;
  readonly hearingStatus: string;
  readonly fiveDigitLot: boolean;
}

export interface DobSafetyViolation extends Dated {
  readonly binIndex: number;
  readonly number: string;
  readonly type: string;
  readonly remarks: string;
  readonly deviceNumber: string;
  readonly deviceType: string;
  readonly cycleEndDay: number;
  readonly dismissDay: number;
}

export interface JobFiling extends Dated {
  readonly jobNumber: number;
  readonly binIndex: number;
  readonly jobType: string;
  readonly initialCost: number;
  readonly description: string;
  readonly permitDay: number;
  readonly signoffDay: number;
  readonly applicantFirst: string;
  readonly applicantLast: string;
  readonly license: string;
  readonly dobNow: boolean;
}

export interface FacadeFiling extends Dated {
  readonly tr6: string;
  readonly controlNumber: number;
  readonly cycle: number;
  readonly binIndex: number;
  readonly status: string;
  readonly correctedDay: number;
}

export interface EmergencyRepair extends Dated {
  readonly id: number;
  readonly number: string;
  readonly kind: 'OMO' | 'HWO';
  readonly binIndex: number;
  readonly apartment: string;
  readonly workType: string;
  readonly description: string;
  readonly amount: number;
  readonly awardDay: number;
  readonly isAep: boolean;
  readonly femaEventId: string;
  readonly femaEvent: string;
}

export interface AepEntry extends Dated {
  readonly round: number;
  readonly violationsAtStart: number;
  readonly dischargeDay: number;
}

export interface UcpOrder extends Dated {
  readonly dischargeDay: number;
  /** write the year garbled (`0201` for 2019), as in the real file */
  readonly garbledYear: boolean;
}

export interface HpdVacate extends Dated {
  readonly orderNumber: number;
  readonly reason: 'Fire Damage' | 'Illegal Occupancy' | 'Habitability';
  readonly entire: boolean;
  readonly units: number;
  readonly rescindDay: number;
  readonly binIndex: number;
}

export interface FdnyVacate extends Dated {
  readonly description: string;
  readonly statusChangeDay: number;
  readonly binIndex: number;
}

export interface DobVacate extends Dated {
  readonly category: string;
  readonly full: boolean;
  readonly dayFirst: boolean;
}

export interface TaxLien extends Dated {
  readonly cycle: string;
  readonly waterDebtOnly: boolean;
}

export interface RodentInspection extends Dated {
  readonly ticket: number;
  readonly jobId: string;
  readonly type: 'Initial' | 'Compliance' | 'BAIT' | 'CLEAN_UPS';
  readonly result: string;
  readonly second: number;
  readonly approvedSecond: number;
  readonly withBbl: boolean;
  readonly zeroCoordinates: boolean;
}

export interface BedbugFiling extends Dated {
  readonly infested: number;
  readonly eradicated: number;
  readonly reinfested: number;
  readonly periodStart: number;
  readonly periodEnd: number;
}

export interface Litigation extends Dated {
  readonly id: number;
  readonly caseType: string;
  readonly closeDay: number;
  readonly harassment: boolean;
  readonly penalty: number;
  readonly openJudgement: boolean;
}

export interface Eviction extends Dated {
  readonly courtIndex: string;
  readonly docket: string;
  readonly apartment: string;
  readonly marshal: readonly [string, string];
  readonly possession: boolean;
}

/** Receives every record the simulation produces, in time order per building. */
export interface RecordSink {
  hpdViolation(r: HpdViolation): void;
  hpdComplaint(r: HpdComplaint): void;
  nyc311(r: Nyc311Request): void;
  dobComplaint(r: DobComplaint): void;
  dobViolation(r: DobViolation): void;
  ecbViolation(r: EcbViolation): void;
  dobSafetyViolation(r: DobSafetyViolation): void;
  jobFiling(r: JobFiling): void;
  facadeFiling(r: FacadeFiling): void;
  emergencyRepair(r: EmergencyRepair): void;
  aepEntry(r: AepEntry): void;
  ucpOrder(r: UcpOrder): void;
  hpdVacate(r: HpdVacate): void;
  fdnyVacate(r: FdnyVacate): void;
  dobVacate(r: DobVacate): void;
  taxLien(r: TaxLien): void;
  rodentInspection(r: RodentInspection): void;
  bedbugFiling(r: BedbugFiling): void;
  litigation(r: Litigation): void;
  eviction(r: Eviction): void;
}
