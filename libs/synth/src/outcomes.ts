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
  if (!building.habitational || building.publicHousing) return out;
  const units = Math.max(1, building.units);
  const size = Math.pow(units, 0.35);
  const multipleDwelling = building.units >= 3 && building.hpdJurisdiction;
  let enrolledUntil = -1;
  for (let m = firstMonth; m <= lastMonth; m++) {
    const rng = new Rng(seed, Stream.outcome, building.index, m);
    const start = monthStart(m);
    const day = (): number => start + rng.int(0, daysInMonth(m) - 1);
    const L = latentAt(latent, start + 15);
    // log-odds of a bad month: very rare at a typical building, common at a badly distressed one
    const hazard = (base: number, slope: number): number => base * Math.exp(slope * (L - 0.5));
    if (rng.chance(hazard(0.0012, 5) * (building.units <= 5 ? 1.5 : 1))) out.push({ day: day(), outcome: 'hpd_vacate' });
    if (multipleDwelling && rng.chance(hazard(0.0022, 5.5) * size)) out.push({ day: day(), outcome: 'class_c_spike' });
    if (multipleDwelling && rng.chance(hazard(0.002, 5) * size)) out.push({ day: day(), outcome: 'emergency_repair' });
    if (multipleDwelling && start >= AEP_FROM && start > enrolledUntil && rng.chance(hazard(0.0009, 6) * size)) {
      const aep = start < UCP_FROM || rng.chance(0.5);
      out.push({ day: day(), outcome: aep ? 'aep_entry' : 'ucp_order' });
      enrolledUntil = start + 365 * 2;
    }
  }
  return out.sort((a, b) => a.day - b.day);
}
