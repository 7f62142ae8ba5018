import type { Building } from './buildings';
import { dayOf, daysInMonth, monthStart } from './dates';
import { latentAt, type LatentProcess } from './latent';
import { Rng, Stream } from './rng';

/** Serious outcomes that the backtest asks about (see truth.ts). */
export type SeriousOutcome = 'hpd_vacate' | 'fdny_vacate' | 'dob_vacate' | 'aep_entry' | 'emergency_repair' | 'class_c_spike' | 'ucp_order';

export interface HiddenOutcome {
  readonly day: number;
  readonly outcome: SeriousOutcome;
}

/** The programs' first rounds: AEP in 2008, UCP in 2019. */
const AEP_FROM = dayOf(2008, 1, 1);
const UCP_FROM = dayOf(2019, 1, 1);

/** The monthly probability of each hidden outcome kind (0 where the kind cannot happen that month). */
export interface MonthlyHazards {
  readonly hpdVacate: number;
  readonly classCSpike: number;
  readonly emergencyRepair: number;
  /** entry into AEP (or, from 2019, UCP): 0 before AEP began and while the building is enrolled */
  readonly program: number;
}

/**
 * The monthly hazards of a building whose latent distress is `L` in the month starting on `start`
 * (`enrolledUntil`: the last day of its current AEP/UCP enrollment, -1 if none): log-odds of a bad month
 * very rare at a typical building and common at a badly distressed one, the building-wide kinds growing
 * with size.
 */
export function monthlyHazards(building: Building, L: number, start: number, enrolledUntil: number): MonthlyHazards {
  const units = Math.max(1, building.units);
  const size = Math.pow(units, 0.35);
  const multipleDwelling = building.units >= 3 && building.hpdJurisdiction;
  const hazard = (base: number, slope: number): number => base * Math.exp(slope * (L - 0.5));
  return {
    hpdVacate: hazard(0.0012, 5) * (building.units <= 5 ? 1.5 : 1),
    classCSpike: multipleDwelling ? hazard(0.0022, 5.5) * size : 0,
    emergencyRepair: multipleDwelling ? hazard(0.002, 5) * size : 0,
    program: multipleDwelling && start >= AEP_FROM && start > enrolledUntil ? hazard(0.0009, 6) * size : 0,
  };
}

/** An AEP/UCP enrollment lasts two years from the month it began. */
export const ENROLLMENT_DAYS = 365 * 2;

/** The generator's outcomes happen only where HPD acts: habitational lots that are not public housing. */
export function hasHiddenOutcomes(building: Building): boolean {
  return building.habitational && !building.publicHousing;
}

/**
 * Serious outcomes drawn from the hidden condition alone: a monthly hazard of each kind that grows with
 * the latent distress (and, for the building-wide kinds, with size). They are decided here, before and
 * apart from any public record, so the backtest label is not a rule applied to the records a scorer reads;
 * the simulation then writes the records each outcome leaves (a vacate order, a burst of class C
 * violations, an emergency repair, a program enrollment).
 */
export function drawHiddenOutcomes(seed: number, building: Building, latent: LatentProcess, firstMonth: number, lastMonth: number): HiddenOutcome[] {
  const out: HiddenOutcome[] = [];
  // every kind drawn here is an HPD action (a vacate order, violations, a repair, a program), and HPD does
  // not act at public housing: its serious outcomes are the FDNY and DOB vacates of the latent shocks
  if (!hasHiddenOutcomes(building)) return out;
  let enrolledUntil = -1;
  for (let m = firstMonth; m <= lastMonth; m++) {
    const rng = new Rng(seed, Stream.outcome, building.index, m);
    const start = monthStart(m);
    const day = (): number => start + rng.int(0, daysInMonth(m) - 1);
    const h = monthlyHazards(building, latentAt(latent, start + 15), start, enrolledUntil);
    if (rng.chance(h.hpdVacate)) out.push({ day: day(), outcome: 'hpd_vacate' });
    if (h.classCSpike > 0 && rng.chance(h.classCSpike)) out.push({ day: day(), outcome: 'class_c_spike' });
    if (h.emergencyRepair > 0 && rng.chance(h.emergencyRepair)) out.push({ day: day(), outcome: 'emergency_repair' });
    if (h.program > 0 && rng.chance(h.program)) {
      const aep = start < UCP_FROM || rng.chance(0.5);
      out.push({ day: day(), outcome: aep ? 'aep_entry' : 'ucp_order' });
      enrolledUntil = start + ENROLLMENT_DAYS;
    }
  }
  return out.sort((a, b) => a.day - b.day);
}
