import type { Building } from './buildings';
import { VIOLATION_CODES, type ViolationCode } from './catalog';
import { daysInMonth, isHeatSeasonMonth, monthStart } from './dates';
import { intensity, latentAt, type LatentProcess } from './latent';
import { Rng, Stream } from './rng';
import { NEVER, type RecordSink } from './records';
import type { HiddenOutcome, SeriousOutcome } from './outcomes';

// The state of a building's simulation (history.ts): what stays the same from month to month, one
// month's stream and intensity, and the helpers every kind of record shares.

export interface SimulationOptions {
  readonly seed: number;
  readonly firstMonth: number;
  /** last simulated month (past the as-of date, for the truth file's future outcomes) */
  readonly lastMonth: number;
  /** global multiplier of event rates (calibration) */
  readonly rateScale: number;
  /** lots whose index % QUIRK_PERIOD equals a quirk slot get that quirk once */
  readonly quirks: boolean;
}

export interface SimulationResult {
  readonly serious: { day: number; outcome: SeriousOutcome }[];
  /** days of the yearly HPD registrations */
  readonly registrationDays: number[];
  /** the most ids one kind of record took from the lot's range */
  idsUsed: number;
}

/** Each quirk applies to the first eligible record of the lots whose index % QUIRK_PERIOD falls in its slot range. */
export const QUIRK_PERIOD = 1000;

export const QUIRK_SLOTS = { malformedViolation: [13, 16], boroughZeroBbl: [113, 118], placeholderBin: [213, 216] } as const;

export function inSlot(slot: number, [from, to]: readonly [number, number]): boolean {
  return slot >= from && slot < to;
}

const MOLD_OR_LEAK = new Set(['583', '550']);

interface OpenViolation {
  readonly day: number;
  readonly closeDay: number;
  readonly moldOrLeak: boolean;
  readonly unit: number;
}

/** Per-building running state of the simulation (kept only while the building is simulated). */
export class BuildingState {
  private readonly counters = new Map<string, number>();
  readonly bc: OpenViolation[] = [];
  readonly repairs: { day: number; amount: number }[] = [];
  /** in AEP until this day */
  aepUntil = -1;
  lastRegistration = -1;
  constructor(
    private readonly ids: { base: number; capacity: number },
    private readonly building: number,
  ) {}
  next(kind: string): number {
    const n = (this.counters.get(kind) ?? 0) + 1;
    if (n > this.ids.capacity) throw new Error(`lot ${this.building} has more ${kind} records than its ${this.ids.capacity} ids (id-space.ts)`);
    this.counters.set(kind, n);
    return this.ids.base + n;
  }
  /** The most ids any kind of record has used. */
  idsUsed(): number {
    let most = 0;
    for (const n of this.counters.values()) most = Math.max(most, n);
    return most;
  }
}

export function weightedCode<T extends { weight: number }>(rng: Rng, items: readonly T[]): T {
  let total = 0;
  for (const item of items) total += item.weight;
  let r = rng.float() * total;
  for (const item of items) {
    r -= item.weight;
    if (r < 0) return item;
  }
  return items[items.length - 1];
}

export const CODES_BY_CATEGORY = new Map<string, ViolationCode[]>();

for (const code of VIOLATION_CODES) {
  const list = CODES_BY_CATEGORY.get(code.category) ?? [];
  list.push(code);
  CODES_BY_CATEGORY.set(code.category, list);
}

/**
 * Whether HPD inspects and enforces at a building: under its jurisdiction and not public housing (the
 * housing authority answers to its own oversight: no HPD registration, inspection, violation, litigation,
 * emergency repair, program or vacate order there).
 */
export function hpdEnforcesAt(building: Pick<Building, 'hpdJurisdiction' | 'publicHousing'>): boolean {
  return building.hpdJurisdiction && !building.publicHousing;
}

/** Correction time of a violation: class C fastest, distressed buildings slowest, some never. */
export function closeDayFor(rng: Rng, day: number, cls: string, latent: number): number {
  if (rng.chance(0.02 + latent * 0.2)) return NEVER;
  const median = cls === 'C' ? 25 : cls === 'B' ? 110 : cls === 'A' ? 160 : 300;
  return day + 1 + Math.round(rng.logNormal(median * (0.6 + latent * 2), 1.0));
}

/** A building being simulated: what stays the same from month to month, and what it has written. */
export interface Simulation {
  building: Building;
  latent: LatentProcess;
  sink: RecordSink;
  state: BuildingState;
  result: SimulationResult;
  outcomes: readonly HiddenOutcome[];
  /** the next hidden outcome to write */
  nextOutcome: number;
  units: number;
  /** large complexes report less per unit (one call covers a building-wide outage) */
  scaledUnits: number;
  /** owner-occupied homes report less too */
  tenantUnits: number;
  bins: number;
  rateScale: number;
  /** quirks this lot still has to write once */
  pending: { malformed: boolean; borough0: boolean; placeholder: boolean };
}

export function simulationOf(
  building: Building,
  latent: LatentProcess,
  options: SimulationOptions,
  sink: RecordSink,
  ids: { base: number; capacity: number },
  outcomes: readonly HiddenOutcome[],
): Simulation {
  const units = Math.max(1, building.units);
  const scaledUnits = units <= 50 ? units : 50 * Math.pow(units / 50, 0.8);
  const quirkSlot = building.index % QUIRK_PERIOD;
  return {
    building,
    latent,
    sink,
    state: new BuildingState(ids, building.index),
    result: { serious: outcomes.map((o) => ({ day: o.day, outcome: o.outcome })), registrationDays: [], idsUsed: 0 },
    outcomes,
    nextOutcome: 0,
    units,
    scaledUnits,
    tenantUnits: building.units <= 2 ? units * 0.35 : scaledUnits,
    bins: building.bins.length,
    rateScale: options.rateScale,
    pending: {
      malformed: options.quirks && inSlot(quirkSlot, QUIRK_SLOTS.malformedViolation),
      borough0: options.quirks && inSlot(quirkSlot, QUIRK_SLOTS.boroughZeroBbl),
      placeholder: options.quirks && inSlot(quirkSlot, QUIRK_SLOTS.placeholderBin),
    },
  };
}

/** One month of a building: its random stream, its latent condition and the intensity of its records. */
export interface Month {
  rng: Rng;
  start: number;
  dim: number;
  L: number;
  f: number;
  heat: boolean;
  year: number;
  monthOfYear: number;
  dayIn: () => number;
  /** class C violations written this month */
  classC: number;
}

export function monthOf(sim: Simulation, seed: number, m: number): Month {
  const rng = new Rng(seed, Stream.month, sim.building.index, m);
  const start = monthStart(m);
  const dim = daysInMonth(m);
  const L = latentAt(sim.latent, start + 15);
  return {
    rng,
    start,
    dim,
    L,
    f: intensity(L) * sim.rateScale,
    heat: isHeatSeasonMonth(m),
    year: 1990 + Math.floor(m / 12),
    monthOfYear: (m % 12) + 1,
    dayIn: () => start + rng.int(0, dim - 1),
    classC: 0,
  };
}

/** An HPD violation, and the open B/C violation it leaves for the programs' rules. */
export function addViolation(sim: Simulation, mo: Month, day: number, code: ViolationCode, apartment: string, story: string, unit: number): void {
  const { rng, L } = mo;
  const { state, bins } = sim;
  const closeDay = closeDayFor(rng, day, code.cls, L);
  const certified = closeDay !== NEVER && rng.chance(0.55) ? closeDay - rng.int(0, 10) : NEVER;
  const malformed = sim.pending.malformed;
  sim.pending.malformed = false;
  sim.sink.hpdViolation({
    day, id: state.next('violation'), novId: state.next('nov'), code, binIndex: rng.int(0, bins - 1),
    apartment, story, closeDay, certifiedDay: certified, dismissed: rng.chance(0.08), malformed,
  });
  if (code.cls === 'C') mo.classC++;
  if (code.cls === 'B' || code.cls === 'C') state.bc.push({ day, closeDay, moldOrLeak: MOLD_OR_LEAK.has(code.order), unit });
}

export function pruneOld(state: BuildingState, today: number): void {
  const horizon = today - 366 * 5;
  let keep = 0;
  for (const v of state.bc) if (v.day >= horizon) state.bc[keep++] = v;
  state.bc.length = keep;
  let keepRepairs = 0;
  for (const r of state.repairs) if (r.day >= horizon) state.repairs[keepRepairs++] = r;
  state.repairs.length = keepRepairs;
}
