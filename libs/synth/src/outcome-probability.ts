import type { Building } from './buildings';
import { daysInMonth, monthIndexOf, monthStart } from './dates';
import { latentLogitAt, SHOCK, shockLogit, shockRatePerYearOf, type LatentProcess, type Shock } from './latent';
import { ENROLLMENT_DAYS, hasHiddenOutcomes, monthlyHazards, type HiddenOutcome, type MonthlyHazards, type SeriousOutcome } from './outcomes';
import { hashUnit } from './rng';
import { shockVacateChance } from './shock-vacates';

/** The window of the truth file's outcome columns: the 365 days after a date. */
export const OUTCOME_WINDOW_DAYS = 365;
/** Samples of the shocks still to come, given at least one (stratified over the first one's day). */
const FUTURE_SHOCK_SAMPLES = 8;

const KIND_OF: Readonly<Record<keyof MonthlyHazards, readonly SeriousOutcome[]>> = {
  hpdVacate: ['hpd_vacate'],
  classCSpike: ['class_c_spike'],
  emergencyRepair: ['emergency_repair'],
  program: ['aep_entry', 'ucp_order'],
};
const KINDS = Object.keys(KIND_OF) as (keyof MonthlyHazards)[];

/**
 * The generator's own probability that a building has at least one serious outcome (any the truth file
 * counts) in the 365 days after `from`, given everything it knows on that day: the latent process with its
 * shocks up to that day and the outcomes already drawn. The monthly hazards of outcomes.ts are integrated
 * over the shocks still to come (a Poisson process: none with probability e^(-rate x window), else a
 * deterministic stratified sample of their days, kinds, sizes and decays, each raising the later months'
 * hazards and leaving a vacate with shockVacateChance). It is a pure function of its inputs: it draws from
 * none of the generator's streams, so writing it changes no record and no outcome.
 */
export function seriousOutcomeProbability(seed: number, building: Building, latent: LatentProcess, outcomes: readonly HiddenOutcome[], from: number): number {
  const meanShocks = (shockRatePerYearOf(building) * OUTCOME_WINDOW_DAYS) / 365.25;
  const noShock = Math.exp(-meanShocks);
  const months = windowMonths(building, { ...latent, shocks: latent.shocks.filter((s) => s.day <= from) }, outcomes, from);
  const quiet = Math.exp(months.reduce((sum, m) => sum + m.logNone, 0));
  let withShocks = 0;
  for (let i = 0; i < FUTURE_SHOCK_SAMPLES; i++) {
    const u = (j: number): number => hashUnit(seed, building.index, from, i, j);
    withShocks += noOutcomeChance(building, months, futureShocks(meanShocks, from, (i + u(0)) / FUTURE_SHOCK_SAMPLES, u));
  }
  return 1 - (noShock * quiet + (1 - noShock) * (withShocks / FUTURE_SHOCK_SAMPLES));
}

/** One month of the window: the hazards' day, the share of its draws the window counts, and the known course. */
interface WindowMonth {
  start: number;
  /** the day whose latent distress sets the month's hazards (outcomes.ts) */
  day: number;
  /** log of the chance of none of its draws counting, without future shocks */
  logNone: number;
  /** the latent logit on `day` from the shocks known on `from` */
  logit: number;
  /** the kinds whose draw of the month can still count, and the share of their days in the window */
  open: { kind: keyof MonthlyHazards; share: number }[];
  enrolledUntil: number;
}

function windowMonths(building: Building, known: LatentProcess, outcomes: readonly HiddenOutcome[], from: number): WindowMonth[] {
  if (!hasHiddenOutcomes(building)) return [];
  const until = from + OUTCOME_WINDOW_DAYS;
  const enrolledUntil = enrollmentEnd(outcomes, from);
  const months: WindowMonth[] = [];
  for (let m = monthIndexOf(from + 1); m <= monthIndexOf(until); m++) {
    const start = monthStart(m);
    const dim = daysInMonth(m);
    const inWindow = Math.min(until, start + dim - 1) - Math.max(from + 1, start) + 1;
    if (inWindow <= 0) continue;
    const share = inWindow / dim;
    // the month the window starts in: a draw that fell on a day up to `from` is known and cannot count
    const open = KINDS.filter((kind) => share === 1 || !outcomes.some((o) => KIND_OF[kind].includes(o.outcome) && o.day >= start && o.day <= from)).map(
      (kind) => ({ kind, share }),
    );
    const month = { start, day: start + 15, logNone: 0, logit: latentLogitAt(known, start + 15), open, enrolledUntil };
    month.logNone = monthLogNone(building, month, month.logit);
    months.push(month);
  }
  return months;
}

/** Log of the chance that none of a month's open draws counts, at a latent logit. */
function monthLogNone(building: Building, month: WindowMonth, logit: number): number {
  const hazards = monthlyHazards(building, 1 / (1 + Math.exp(-logit)), month.start, month.enrolledUntil);
  let logNone = 0;
  for (const { kind, share } of month.open) {
    const p = Math.min(1, hazards[kind]);
    // a draw of a month the window starts in counts if it fell after `from`, given it did not fall before
    if (p > 0) logNone += Math.log1p(share === 1 ? -p : -(p * share) / (1 - p * (1 - share)));
  }
  return logNone;
}

/** One sample of the shocks of the window given at least one: their count, days (the first at `firstAt` of the window) and draws as latent.ts makes them. */
function futureShocks(mean: number, from: number, firstAt: number, u: (j: number) => number): Shock[] {
  // the count, from a Poisson law given at least one
  const target = u(1) * (1 - Math.exp(-mean));
  let n = 1;
  let term = Math.exp(-mean) * mean;
  let cumulative = term;
  while (cumulative < target && n < 20) {
    n++;
    term *= mean / n;
    cumulative += term;
  }
  const shocks: Shock[] = [];
  for (let k = 0; k < n; k++) {
    const at = k === 0 ? firstAt : u(10 + 4 * k);
    shocks.push({
      day: from + 1 + Math.floor(at * OUTCOME_WINDOW_DAYS),
      fire: u(11 + 4 * k) < SHOCK.fireChance,
      size: SHOCK.minSize + u(12 + 4 * k) * SHOCK.sizeRange,
      decayDays: SHOCK.minDecayDays + u(13 + 4 * k) * SHOCK.decayRangeDays,
    });
  }
  return shocks.sort((a, b) => a.day - b.day);
}

/** The chance of no serious outcome in the window for one course of the shocks still to come (`future`, sorted). */
function noOutcomeChance(building: Building, months: readonly WindowMonth[], future: readonly Shock[]): number {
  let logNone = 0;
  for (const shock of future) logNone += Math.log1p(-shockVacateChance(building, shock));
  for (const month of months) {
    let added = 0;
    for (const shock of future) if (shock.day <= month.day) added += shockLogit(shock, month.day - shock.day);
    logNone += added === 0 ? month.logNone : monthLogNone(building, month, month.logit + added);
  }
  return Math.exp(logNone);
}

/** The last day of the AEP/UCP enrollment a building is in on `from` (-1 if none), as drawHiddenOutcomes counts it. */
function enrollmentEnd(outcomes: readonly HiddenOutcome[], from: number): number {
  let end = -1;
  for (const o of outcomes) {
    if (o.day > from) break;
    if (o.outcome === 'aep_entry' || o.outcome === 'ucp_order') end = Math.max(end, monthStart(monthIndexOf(o.day)) + ENROLLMENT_DAYS);
  }
  return end;
}
