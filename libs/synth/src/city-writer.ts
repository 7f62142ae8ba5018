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

  hpdViolation(r: HpdViolation): void {
    if (this.keep(r.day)) this.sinks.hpd_violations.push(hpdViolationLine(this.building, r, this.asOf));
  }
  hpdComplaint(r: HpdComplaint): void {
    if (!this.keep(r.day)) return;
    const sink = this.sinks.hpd_complaints;
    sink.push(hpdComplaintLines(this.building, r, this.asOf));
    sink.rows += r.problems.length - 1; // one line per problem
  }
  nyc311(r: Nyc311Request): void {
    if (this.keep(r.day)) this.sinks[r.day < NYC311_CURRENT_FROM ? 'nyc311_2010_2019' : 'nyc311'].push(nyc311Line(this.building, r, this.asOf));
  }
  dobComplaint(r: DobComplaint): void {
    if (this.keep(r.day)) this.sinks.dob_complaints.push(dobComplaintLine(this.building, r, this.asOf));
  }
  dobViolation(r: DobViolation): void {
    if (this.keep(r.day)) this.sinks.dob_violations.push(dobViolationLine(this.building, r, this.asOf));
  }
  ecbViolation(r: EcbViolation): void {
    if (this.keep(r.day)) this.sinks.dob_ecb_violations.push(ecbViolationLine(this.building, r, this.asOf));
  }
  dobSafetyViolation(r: DobSafetyViolation): void {
    if (this.keep(r.day)) this.sinks.dob_safety_violations.push(dobSafetyViolationLine(this.building, r, this.asOf));
  }
  jobFiling(r: JobFiling): void {
    if (!this.keep(r.day)) return;
    if (r.dobNow) this.sinks.dob_now_job_filings.push(dobNowJobLine(this.building, r, this.asOf));
    else this.sinks.dob_job_filings.push(dobJobLine(this.building, r, this.asOf));
  }
  facadeFiling(r: FacadeFiling): void {
    if (this.keep(r.day)) this.sinks.dob_facades.push(dobFacadeLine(this.building, r, this.asOf));
  }
  emergencyRepair(r: EmergencyRepair): void {
    if (!this.keep(r.day)) return;
    if (r.kind === 'OMO') this.sinks.hpd_omo_charges.push(hpdOmoLine(this.building, r, this.asOf));
    else this.sinks.hpd_hwo_charges.push(hpdHwoLine(this.building, r, this.asOf));
  }
  aepEntry(r: AepEntry): void {
    if (this.keep(r.day)) this.sinks.hpd_aep.push(hpdAepLine(this.building, r, this.asOf));
  }
  ucpOrder(r: UcpOrder): void {
    if (this.keep(r.day)) this.sinks.hpd_underlying_conditions.push(hpdUcpLine(this.building, r, this.asOf));
  }
  hpdVacate(r: HpdVacate): void {
    if (this.keep(r.day)) this.sinks.hpd_vacate_orders.push(hpdVacateLine(this.building, r, this.asOf));
  }
  fdnyVacate(r: FdnyVacate): void {
    if (this.keep(r.day)) this.sinks.fdny_vacates.push(fdnyVacateLine(this.building, r, this.asOf));
  }
  dobVacate(r: DobVacate): void {
    if (this.keep(r.day)) this.sinks.dob_vacate_orders.push(dobVacateLine(this.building, r));
  }
  taxLien(r: TaxLien): void {
    if (this.keep(r.day)) this.sinks.dof_tax_liens.push(taxLienLine(this.building, r));
  }
  rodentInspection(r: RodentInspection): void {
    if (this.keep(r.day)) this.sinks.dohmh_rodents.push(rodentLine(this.building, r));
  }
  bedbugFiling(r: BedbugFiling): void {
    if (this.keep(r.day)) this.sinks.hpd_bedbugs.push(hpdBedbugLine(this.building, r));
  }
  litigation(r: Litigation): void {
    if (this.keep(r.day)) this.sinks.hpd_litigations.push(hpdLitigationLine(this.building, r, this.asOf));
  }
  eviction(r: Eviction): void {
    if (this.keep(r.day)) this.sinks.evictions.push(evictionLine(this.building, r));
  }

  async drain(): Promise<void> {
    for (const sink of Object.values(this.sinks)) await sink.drain();
  }

  async close(): Promise<void> {
    await Promise.all(Object.values(this.sinks).map((sink) => sink.close()));
  }
}
