import type { Building } from './buildings';
import { dayOf } from './dates';
import { Rng, Stream } from './rng';

export type Trajectory = 'improving' | 'stable' | 'declining';

/** A sudden crisis (fire, boiler failure, an owner walking away) that fades out. */
export interface Shock {
  readonly day: number;
  readonly size: number;
  readonly decayDays: number;
  /** a fire: drives fire-damage vacates */
  readonly fire: boolean;
}

/**
 * The hidden condition of a building over time: a logistic curve of a base level, a trend, a slow
 * cycle and shocks. Every public record is drawn from it; truth.csv exposes it.
 */
export interface LatentProcess {
  readonly trajectory: Trajectory;
  readonly baseLogit: number;
  /** change of the logit per year */
  readonly slopePerYear: number;
  readonly cycleAmplitude: number;
  readonly cyclePeriodDays: number;
  readonly cyclePhase: number;
  readonly shocks: readonly Shock[];
}

const REFERENCE_DAY = dayOf(2018, 1, 1);
const SHOCK_FROM = dayOf(1995, 1, 1);
const SHOCK_TO = dayOf(2045, 1, 1);

/** The draws of a shock: a fire with this chance, a size and a decay uniform in their ranges. */
export const SHOCK = { fireChance: 0.35, minSize: 0.8, sizeRange: 1.8, minDecayDays: 60, decayRangeDays: 500 } as const;

/** Shocks arrive as a Poisson process, more often under a bad owner and in larger buildings. */
export function shockRatePerYearOf(building: Building): number {
  return 0.012 * (1 + Math.max(0, building.owner.badness)) * (building.units >= 6 ? 1.5 : 1);
}

export function latentProcessFor(seed: number, building: Building): LatentProcess {
  const rng = new Rng(seed, Stream.latent, building.index);
  const age = building.yearBuilt < 1940 ? 0.55 : building.yearBuilt < 1980 ? 0.2 : -0.45;
  const size = building.units >= 100 ? 0.35 : building.units >= 6 ? 0.25 : building.units >= 3 ? 0 : -0.6;
  const tenure = building.sizeClass === 'condo' ? -0.9 : 0; // owner-occupied condos are kept up better
  const baseLogit = -2.1 + building.owner.badness * 1.1 + age + size + tenure + building.neighbourhood + rng.normal() * 0.7;

  const declineOdds = 0.18 + Math.max(0, building.owner.badness) * 0.2;
  const u = rng.float();
  const trajectory: Trajectory = u < declineOdds ? 'declining' : u < declineOdds + 0.25 ? 'improving' : 'stable';
  const slopePerYear =
    trajectory === 'declining' ? 0.06 + rng.float() * 0.22 : trajectory === 'improving' ? -(0.06 + rng.float() * 0.2) : rng.normal() * 0.02;

  const shocks: Shock[] = [];
  const shockRatePerYear = shockRatePerYearOf(building);
  let day = SHOCK_FROM + rng.exponential(365.25 / shockRatePerYear);
  while (day < SHOCK_TO) {
    const fire = rng.chance(SHOCK.fireChance);
    shocks.push({ day: Math.floor(day), size: SHOCK.minSize + rng.float() * SHOCK.sizeRange, decayDays: SHOCK.minDecayDays + rng.float() * SHOCK.decayRangeDays, fire });
    day += rng.exponential(365.25 / shockRatePerYear);
  }

  return {
    trajectory,
    baseLogit,
    slopePerYear,
    cycleAmplitude: 0.1 + rng.float() * 0.35,
    cyclePeriodDays: 365 * (3 + rng.float() * 7),
    cyclePhase: rng.float() * Math.PI * 2,
    shocks,
  };
}

/** Latent distress in (0, 1) on a given day. */
export function latentAt(process: LatentProcess, day: number): number {
  return 1 / (1 + Math.exp(-latentLogitAt(process, day)));
}

/** The logit of latentAt: its trend and cycle, plus what each shock up to the day still adds. */
export function latentLogitAt(process: LatentProcess, day: number): number {
  let logit =
    process.baseLogit +
    (process.slopePerYear * (day - REFERENCE_DAY)) / 365.25 +
    process.cycleAmplitude * Math.sin((2 * Math.PI * day) / process.cyclePeriodDays + process.cyclePhase);
  for (const shock of process.shocks) {
    if (shock.day > day) break;
    const age = day - shock.day;
    logit += shockLogit(shock, age);
  }
  return logit;
}

/** What a shock adds to the latent logit `age` days after it (0 once it has faded). */
export function shockLogit(shock: Shock, age: number): number {
  return age < shock.decayDays * 4 ? shock.size * Math.exp(-age / shock.decayDays) : 0;
}

/** Event-rate multiplier: 1 at a typical building, up to 8 at a badly distressed one. */
export function intensity(latent: number): number {
  return Math.min(8, Math.exp(3.2 * (latent - 0.2)));
}
