import { join } from 'node:path';
import type { Building } from './buildings';
import { CsvSink } from './csv';
import { dobComplaintLine } from './formats/dob-complaints';
import { dobFacadeLine } from './formats/dob-facades';
import { dobJobLine } from './formats/dob-job-filings';
import { dobNowJobLine } from './formats/dob-now-job-filings';
import { dobSafetyViolationLine } from './formats/dob-safety-violations';
import { dobVacateLine } from './formats/dob-vacate-orders';
import { dobViolationLine } from './formats/dob-violations';
import { taxLienLine } from './formats/dof-tax-liens';
import { rodentLine } from './formats/dohmh-rodents';
import { ecbViolationLine } from './formats/ecb-violations';
import { evictionLine } from './formats/evictions';
import { fdnyVacateLine } from './formats/fdny-vacates';
import { OUTPUT_FILES } from './formats/files';
import { OLDER_LAYOUT_SOURCES, olderLayout } from './formats/older-layouts';
import { ECB_DRIFTED_HEADER, HEADERS, type SourceKey } from './formats/headers';
import { hpdAepLine } from './formats/hpd-aep';
import { hpdBedbugLine } from './formats/hpd-bedbugs';
import { hpdComplaintLines } from './formats/hpd-complaints';
import { hpdHwoLine, hpdOmoLine } from './formats/hpd-emergency-repairs';
import { hpdLitigationLine } from './formats/hpd-litigations';
import { hpdUcpLine } from './formats/hpd-underlying-conditions';
import { hpdVacateLine } from './formats/hpd-vacate-orders';
import { hpdViolationLine } from './formats/hpd-violations';
import { nyc311Line, NYC311_CURRENT_FROM } from './formats/nyc311';
import type {
  AepEntry, BedbugFiling, DobComplaint, DobSafetyViolation, DobVacate, DobViolation, EcbViolation, EmergencyRepair, Eviction,
  FacadeFiling, FdnyVacate, HpdComplaint, HpdVacate, HpdViolation, JobFiling, Litigation, Nyc311Request, RecordSink,
  RodentInspection, TaxLien, UcpOrder,
} from './records';

/**
 * The record sink of a run: keeps the records dated inside [window start, as-of], renders them as
 * their file shows them on the as-of date and appends them to that file.
 */
export class CityWriter implements RecordSink {
  readonly sinks: Readonly<Record<SourceKey, CsvSink>>;
  /** the building whose records are being written */
  building!: Building;

  constructor(
    outDir: string,
    private readonly windowStart: number,
    private readonly asOf: number,
    headerDrift: boolean,
    gzip = false,
    olderLayouts = false,
    /** with a day: write only the records new since that day or shown differently than on that day (a day's changes) */
    private readonly changesSince: number | null = null,
  ) {
    const sinks = {} as Record<SourceKey, CsvSink>;
    for (const key of Object.keys(HEADERS) as SourceKey[]) {
      const older = olderLayouts && (OLDER_LAYOUT_SOURCES as readonly SourceKey[]).includes(key) ? olderLayout(key as (typeof OLDER_LAYOUT_SOURCES)[number]) : null;
      const header = older?.header ?? (key === 'dob_ecb_violations' && headerDrift ? ECB_DRIFTED_HEADER : HEADERS[key]);
      const fileName = gzip ? `${OUTPUT_FILES[key]}.gz` : OUTPUT_FILES[key];
      sinks[key] = new CsvSink(fileName, join(outDir, fileName), header, gzip, older?.line);
    }
    this.sinks = sinks;
  }

  private keep(day: number): boolean {
    return day >= this.windowStart && day <= this.asOf;
  }

  /**
   * Appends a record dated `day`, rendered for the as-of date, when it is in the window; in a changes
   * run only when it is new since `changesSince` or its file shows it differently than on that day.
   * Returns whether it was written.
   */
  private emit(sink: CsvSink, day: number, render: (asOf: number) => string): boolean {
    if (!this.keep(day)) return false;
    const line = render(this.asOf);
    const since = this.changesSince;
    if (since !== null && day >= this.windowStart && day <= since && render(since) === line) return false;
    sink.push(line);
    return true;
  }

  hpdViolation(r: HpdViolation): void {
    this.emit(this.sinks.hpd_violations, r.day, (at) => hpdViolationLine(this.building, r, at));
  }
  hpdComplaint(r: HpdComplaint): void {
    const sink = this.sinks.hpd_complaints;
    if (this.emit(sink, r.day, (at) => hpdComplaintLines(this.building, r, at))) sink.rows += r.problems.length - 1; // one line per problem
  }
  nyc311(r: Nyc311Request): void {
    this.emit(this.sinks[r.day < NYC311_CURRENT_FROM ? 'nyc311_2010_2019' : 'nyc311'], r.day, (at) => nyc311Line(this.building, r, at));
  }
  dobComplaint(r: DobComplaint): void {
    this.emit(this.sinks.dob_complaints, r.day, (at) => dobComplaintLine(this.building, r, at));
  }
  dobViolation(r: DobViolation): void {
    this.emit(this.sinks.dob_violations, r.day, (at) => dobViolationLine(this.building, r, at));
  }
  ecbViolation(r: EcbViolation): void {
    this.emit(this.sinks.dob_ecb_violations, r.day, (at) => ecbViolationLine(this.building, r, at));
  }
  dobSafetyViolation(r: DobSafetyViolation): void {
    this.emit(this.sinks.dob_safety_violations, r.day, (at) => dobSafetyViolationLine(this.building, r, at));
  }
  jobFiling(r: JobFiling): void {
    if (r.dobNow) this.emit(this.sinks.dob_now_job_filings, r.day, (at) => dobNowJobLine(this.building, r, at));
    else this.emit(this.sinks.dob_job_filings, r.day, (at) => dobJobLine(this.building, r, at));
  }
  facadeFiling(r: FacadeFiling): void {
    this.emit(this.sinks.dob_facades, r.day, (at) => dobFacadeLine(this.building, r, at));
  }
  emergencyRepair(r: EmergencyRepair): void {
    if (r.kind === 'OMO') this.emit(this.sinks.hpd_omo_charges, r.day, (at) => hpdOmoLine(this.building, r, at));
    else this.emit(this.sinks.hpd_hwo_charges, r.day, (at) => hpdHwoLine(this.building, r, at));
  }
  aepEntry(r: AepEntry): void {
    this.emit(this.sinks.hpd_aep, r.day, (at) => hpdAepLine(this.building, r, at));
  }
  ucpOrder(r: UcpOrder): void {
    this.emit(this.sinks.hpd_underlying_conditions, r.day, (at) => hpdUcpLine(this.building, r, at));
  }
  hpdVacate(r: HpdVacate): void {
    this.emit(this.sinks.hpd_vacate_orders, r.day, (at) => hpdVacateLine(this.building, r, at));
  }
  fdnyVacate(r: FdnyVacate): void {
    this.emit(this.sinks.fdny_vacates, r.day, (at) => fdnyVacateLine(this.building, r, at));
  }
  dobVacate(r: DobVacate): void {
    this.emit(this.sinks.dob_vacate_orders, r.day, () => dobVacateLine(this.building, r));
  }
  taxLien(r: TaxLien): void {
    this.emit(this.sinks.dof_tax_liens, r.day, () => taxLienLine(this.building, r));
  }
  rodentInspection(r: RodentInspection): void {
    this.emit(this.sinks.dohmh_rodents, r.day, () => rodentLine(this.building, r));
  }
  bedbugFiling(r: BedbugFiling): void {
    this.emit(this.sinks.hpd_bedbugs, r.day, () => hpdBedbugLine(this.building, r));
  }
  litigation(r: Litigation): void {
    this.emit(this.sinks.hpd_litigations, r.day, (at) => hpdLitigationLine(this.building, r, at));
  }
  eviction(r: Eviction): void {
    this.emit(this.sinks.evictions, r.day, () => evictionLine(this.building, r));
  }

  async drain(): Promise<void> {
    for (const sink of Object.values(this.sinks)) await sink.drain();
  }

  async close(): Promise<void> {
    await Promise.all(Object.values(this.sinks).map((sink) => sink.close()));
  }
}
