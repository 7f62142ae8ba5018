import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { buildingAt, type Building } from './buildings';
import { CityWriter } from './city-writer';
import { CsvSink } from './csv';
import { dayOf, isoDay, monthIndexOf, parseIsoDay, ymdOf } from './dates';
import { REFERENCE_SOURCES } from './formats/files';
import { HEADERS, type SourceKey } from './formats/headers';
import { hpdJurisdictionLines, hpdJurisdictionPlaceholderLine } from './formats/hpd-jurisdiction';
import { hpdContactLines, hpdRegistrationLine } from './formats/hpd-registrations';
import { plutoLine } from './formats/pluto';
import { simulateBuilding, QUIRK_PERIOD, type SimulationOptions, type SimulationResult } from './history';
import { IdSpace, idWeight } from './id-space';
import { latentProcessFor } from './latent';
import { corporatePoolSize } from './owners';
import { drawHiddenOutcomes } from './outcomes';
import { seedKey } from './rng';
import { truthHeader, truthLine } from './truth';

export interface GenerateCityOptions {
  /** habitational lots (the full city is about 445,000) */
  readonly buildings: number;
  readonly seed: number | string;
  readonly outDir: string;
  /** `YYYY-MM-DD`; default 2026-11-01 (never today: the output must not depend on the clock) */
  readonly asOf?: string;
  /** years of history; the window starts on January 1 of (as-of year - years). Default 15. */
  readonly years?: number;
  /**
   * `YYYY-MM-DD`, overrides the window start. A snapshot run (same seed, later as-of) reproduces the
   * earlier run's past exactly when both start on the same day: the default does so within a calendar year.
   */
  readonly historyStart?: string;
  /** write the ECB file under its drifted header (HEARING_STATUS -> MISHEARING_STATUS) */
  readonly headerDrift?: boolean;
  /** inject the rare malformed rows and placeholders (default true) */
  readonly quirks?: boolean;
  /** write the source files gzip-compressed (`hpd_violations.csv.gz`...); truth.csv stays plain */
  readonly gzip?: boolean;
  /** write PLUTO, HPD violations, DOB safety violations, DOB NOW filings and rodent inspections in their oldest declared layouts */
  readonly olderLayouts?: boolean;
  /**
   * `YYYY-MM-DD` before the as-of date: write a refresh instead of a snapshot, only the event rows that
   * are new since that day or that the file shows differently than on that day (a status changed).
   * The building files (PLUTO, HPD jurisdiction, registrations, contacts) are left out, and so is
   * any file without a changed row.
   */
  readonly changesSince?: string;
}

export interface SynthProgress {
  /** lots generated so far (habitational and not) */
  readonly done: number;
  readonly total: number;
  readonly rows: number;
  readonly bytes: number;
}

export interface CityFileReport {
  readonly source: SourceKey | 'truth';
  readonly file: string;
  readonly rows: number;
  readonly bytes: number;
}

export interface CityReport {
  readonly seed: number | string;
  readonly buildings: number;
  /** habitational + non-habitational lots in PLUTO */
  readonly lots: number;
  readonly asOf: string;
  readonly historyStart: string;
  readonly outDir: string;
  readonly files: readonly CityFileReport[];
  /** rows of the event files (all but PLUTO, HPD jurisdiction and registration contacts; truth excluded) */
  readonly eventRows: number;
  /** distribution of event rows over the habitational buildings */
  readonly eventsPerBuilding: EventDistribution;
  /**
   * The 32-bit id space (id-space.ts): ids per unit of a lot, and the largest share of its range any
   * lot used for one kind of record (the same share per unit is what a larger city must offer).
   */
  readonly ids: { perUnit: number; mostUsedShare: number; mostUsedPerUnit: number };
  readonly totalRows: number;
  readonly totalBytes: number;
  readonly elapsedMs: number;
}

export interface EventDistribution {
  readonly mean: number;
  readonly median: number;
  readonly p99: number;
  readonly max: number;
  /** buildings with 10,000 or more event rows */
  readonly atLeast10000: number;
}

export const DEFAULT_AS_OF = '2026-11-01';
export const DEFAULT_YEARS = 15;
/** Share of extra, non-habitational lots listed in PLUTO (out of scope for the service). */
const NON_HABITATIONAL_SHARE = 0.06;
/** Global calibration of event rates: about 315 event rows per habitational building over 15 years (measured at 44,500 buildings). */
export const RATE_SCALE = 1;
const BATCH = 64;

/** The id ranges of the city's lots, from their units (a first pass over the lots, without their histories). */
function idSpaceOf(seed: number, lots: number, habitable: number): IdSpace {
  const weights = new Float64Array(lots);
  for (let index = 0; index < lots; index++) weights[index] = idWeight(buildingAt(seed, index, habitable));
  return new IdSpace(weights);
}

/** What a city run is: its seed, window and size, from the options (checked). */
interface CityPlan {
  seed: number;
  asOf: number;
  windowStart: number;
  habitable: number;
  lots: number;
  quirks: boolean;
  simulation: SimulationOptions;
  /** day of the snapshot a changes run is the refresh of (null: a whole snapshot) */
  changesSince: number | null;
}

function cityPlan(options: GenerateCityOptions): CityPlan {
  if (!Number.isInteger(options.buildings) || options.buildings < 1) throw new Error('buildings must be a positive integer');
  const seed = seedKey(options.seed);
  const asOf = parseIsoDay(options.asOf ?? DEFAULT_AS_OF);
  const years = options.years ?? DEFAULT_YEARS;
  if (!Number.isInteger(years) || years < 1 || years > 30) throw new Error('years must be an integer between 1 and 30');
  const windowStart = options.historyStart ? parseIsoDay(options.historyStart) : dayOf(ymdOf(asOf).year - years, 1, 1);
  if (windowStart > asOf) throw new Error('the history must start before the as-of date');
  const habitable = options.buildings;
  const quirks = options.quirks ?? true;
  const changesSince = options.changesSince ? parseIsoDay(options.changesSince) : null;
  if (changesSince !== null && (changesSince >= asOf || changesSince < windowStart)) throw new Error('changes since must be a day before the as-of date, inside the history');
  return {
    seed,
    asOf,
    windowStart,
    habitable,
    lots: habitable + Math.round(habitable * NON_HABITATIONAL_SHARE),
    quirks,
    simulation: { seed, firstMonth: monthIndexOf(windowStart), lastMonth: monthIndexOf(asOf + 365), rateScale: RATE_SCALE, quirks },
    changesSince,
  };
}

/**
 * Writes a synthetic city in the formats of the real NYC Open Data files, plus truth.csv. Same
 * options, same bytes: every draw comes from a stream keyed by (seed, lot, month).
 */
export async function generateCity(options: GenerateCityOptions, onProgress?: (progress: SynthProgress) => void): Promise<CityReport> {
  const started = Date.now();
  const plan = cityPlan(options);
  const { seed, asOf, windowStart, habitable, lots, simulation } = plan;

  await mkdir(options.outDir, { recursive: true });
  const writer = new CityWriter(options.outDir, windowStart, asOf, options.headerDrift ?? false, options.gzip ?? false, options.olderLayouts ?? false, plan.changesSince);
  const years = { first: ymdOf(windowStart).year, last: ymdOf(asOf).year };
  const truth = new CsvSink('truth.csv', join(options.outDir, 'truth.csv'), truthHeader(years.first, years.last, asOf));
  const sinks = writer.sinks;
  const eventSinks = (Object.keys(HEADERS) as SourceKey[]).filter((key) => !REFERENCE_SOURCES.has(key)).map((key) => sinks[key]);
  const countEvents = (): number => eventSinks.reduce((n, sink) => n + sink.rows, 0);
  const eventsPerBuilding = new Uint32Array(habitable);
  const ids = idSpaceOf(seed, lots, habitable);
  let idShare = 0;
  for (let index = 0; index < lots; index++) {
    const eventsBefore = countEvents();
    const building: Building = buildingAt(seed, index, habitable);
    const latent = latentProcessFor(seed, building);
    writer.building = building;
    const outcomes = drawHiddenOutcomes(seed, building, latent, simulation.firstMonth, simulation.lastMonth);
    const range = ids.rangeOf(index);
    const result = simulateBuilding(building, latent, simulation, writer, range, outcomes);
    idShare = Math.max(idShare, result.idsUsed / range.capacity);
    if (building.habitational) eventsPerBuilding[index] = countEvents() - eventsBefore;
    if (plan.changesSince === null) writeReferenceRows(writer, building, result, plan);
    if (building.habitational) truth.push(truthLine(seed, building, latent, outcomes, result, years, asOf));

    if (index % BATCH === BATCH - 1) {
      await writer.drain();
      await truth.drain();
      if (onProgress) onProgress(progressOf(writer, index + 1, lots));
    }
  }
  await writer.close();
  await truth.close();
  if (plan.changesSince !== null) await removeUnchangedFiles(writer, options.outDir);
  if (onProgress) onProgress(progressOf(writer, lots, lots));
  return cityReport(options, plan, writer, truth, {
    eventsPerBuilding: distributionOf(eventsPerBuilding),
    ids: { perUnit: ids.perWeight, mostUsedShare: idShare, mostUsedPerUnit: idShare * ids.perWeight },
    elapsedMs: Date.now() - started,
  });
}

/** A lot's rows in the reference files: PLUTO, and for a habitational building HPD jurisdiction and registrations. */
function writeReferenceRows(writer: CityWriter, building: Building, result: SimulationResult, plan: CityPlan): void {
  const { sinks } = writer;
  sinks.pluto.push(plutoLine(building));
  if (building.habitational) {
    const lastRegistration = lastBefore(result.registrationDays, plan.asOf);
    if (building.hpdJurisdiction) {
      sinks.hpd_jurisdiction.push(hpdJurisdictionLines(building, lastRegistration !== null));
      sinks.hpd_jurisdiction.rows += building.bins.length - 1;
    }
    if (lastRegistration !== null) {
      sinks.hpd_registrations.push(hpdRegistrationLine(building, lastRegistration));
      const contacts = hpdContactLines(building, corporatePoolSize(plan.habitable));
      sinks.hpd_registration_contacts.push(contacts);
      sinks.hpd_registration_contacts.rows += contacts.split('\n').length - 2;
    }
  }
  if (plan.quirks && building.index % QUIRK_PERIOD === 7) sinks.hpd_jurisdiction.push(hpdJurisdictionPlaceholderLine(building));
}

function cityReport(
  options: GenerateCityOptions,
  plan: CityPlan,
  writer: CityWriter,
  truth: CsvSink,
  measured: Pick<CityReport, 'eventsPerBuilding' | 'ids' | 'elapsedMs'>,
): CityReport {
  const files: CityFileReport[] = (Object.keys(HEADERS) as SourceKey[])
    .filter((source) => plan.changesSince === null || writer.sinks[source].rows > 0)
    .map((source) => ({
      source,
      file: writer.sinks[source].fileName,
      rows: writer.sinks[source].rows,
      bytes: writer.sinks[source].bytes,
    }));
  files.push({ source: 'truth', file: 'truth.csv', rows: truth.rows, bytes: truth.bytes });
  const cityFiles = files.filter((f) => f.source !== 'truth');
  return {
    seed: options.seed,
    buildings: plan.habitable,
    lots: plan.lots,
    asOf: isoDay(plan.asOf),
    historyStart: isoDay(plan.windowStart),
    outDir: options.outDir,
    files,
    eventRows: cityFiles.filter((f) => !REFERENCE_SOURCES.has(f.source as SourceKey)).reduce((n, f) => n + f.rows, 0),
    eventsPerBuilding: measured.eventsPerBuilding,
    ids: measured.ids,
    totalRows: cityFiles.reduce((n, f) => n + f.rows, 0),
    totalBytes: files.reduce((n, f) => n + f.bytes, 0),
    elapsedMs: measured.elapsedMs,
  };
}

/** A changes run keeps only the files with a changed row. */
async function removeUnchangedFiles(writer: CityWriter, outDir: string): Promise<void> {
  for (const sink of Object.values(writer.sinks)) if (sink.rows === 0) await rm(join(outDir, sink.fileName), { force: true });
}

function distributionOf(counts: Uint32Array): EventDistribution {
  const sorted = Uint32Array.from(counts).sort();
  let total = 0;
  let atLeast10000 = 0;
  for (const n of sorted) {
    total += n;
    if (n >= 10_000) atLeast10000++;
  }
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { mean: total / sorted.length, median: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1], atLeast10000 };
}

function lastBefore(days: readonly number[], asOf: number): number | null {
  let last: number | null = null;
  for (const day of days) if (day <= asOf) last = day;
  return last;
}

function progressOf(writer: CityWriter, done: number, total: number): SynthProgress {
  let rows = 0;
  let bytes = 0;
  for (const sink of Object.values(writer.sinks)) {
    rows += sink.rows;
    bytes += sink.bytes;
  }
  return { done, total, rows, bytes };
}
