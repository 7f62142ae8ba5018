import type { Building } from './buildings';
import { csvLine } from './csv';
import { dayOf, isoDay } from './dates';
import type { SeriousOutcome, SimulationResult } from './history';
import { latentAt, type LatentProcess } from './latent';
import { OUTCOME_WINDOW_DAYS, seriousOutcomeProbability } from './outcome-probability';
import type { HiddenOutcome } from './outcomes';

/**
 * truth.csv: the hidden state behind the public files, for the scoring validation harness only.
 *
 * Columns:
 * - bbl, borough, units, size_class, owner_id, owner_kind (individual | corporate | public), trajectory (improving | stable | declining)
 * - latent_YYYY: latent distress (0-1) on January 1 of each year of the window
 * - latent_cut, latent_as_of: latent distress on the cut date (as-of minus 365 days) and on the as-of date
 * - serious_before_cut_12m: number of serious outcomes in the 12 months up to the cut date
 * - first_serious_after_cut, first_serious_after_cut_type: first serious outcome in (cut, as-of]
 *   (ISO date and type, blank if none)
 * - serious_12m_after_cut: 1 if there is one, else 0 (the backtest label)
 * - first_serious_after_as_of, first_serious_after_as_of_type, serious_12m_after_as_of: the same for
 *   the 12 months after the as-of date (the future the public files do not show yet)
 *
 * - serious_days: every serious outcome of the simulated window, as ISO dates separated by `;` (labels
 *   for any cut date)
 * - reporting_propensity: the building's 311 reporting propensity (1 = city average)
 * - neighbourhood: disadvantage of the neighbourhood on the latent logit scale (higher = poorer)
 * - public_housing: 1 for public housing (HPD ManagementProgram NYCHA, owner NEW YORK CITY HOUSING AUTHORITY,
 *   owner_kind `public`), else 0. HPD neither inspects nor enforces there, so these lots have no HPD
 *   complaint, violation, litigation, emergency repair, AEP/UCP, vacate or registration record, and their
 *   serious outcomes are only the FDNY and DOB vacates of fires and structural shocks; their latent
 *   distress is drawn as everywhere else.
 * - p_serious_12m_after_cut, p_serious_12m_after_as_of: the generator's own probability of the outcome
 *   serious_12m_after_cut and serious_12m_after_as_of count, given its hidden state on the cut and as-of
 *   dates (outcome-probability.ts: the monthly hazards, the shocks still to come integrated over); the
 *   0/1 columns are one draw from it
 * - p_serious_12m_after_YYYY-MM-DD: the same probability for the 365 days after each validation cut date
 *   (VALIDATION_CUTS dates, 365 days apart before the as-of date), beside serious_days for the draws
 *
 * Serious outcomes are drawn from the hidden condition (outcomes.ts), not from the records: hpd_vacate,
 * aep_entry, ucp_order, emergency_repair, class_c_spike; plus fire and structural vacates (hpd_vacate,
 * fdny_vacate, dob_vacate) from the latent shocks. Each leaves its records in the public files.
 */
/** The validation cut dates the truth file gives probabilities for: 1, 2 and 3 times 365 days before the as-of date. */
export const VALIDATION_CUTS = 3;

function validationCutDays(asOf: number): number[] {
  return Array.from({ length: VALIDATION_CUTS }, (_, i) => asOf - (i + 1) * OUTCOME_WINDOW_DAYS);
}

export function truthHeader(firstYear: number, lastYear: number, asOf: number): string {
  const years: string[] = [];
  for (let y = firstYear; y <= lastYear; y++) years.push(`latent_${y}`);
  return [
    'bbl', 'borough', 'units', 'size_class', 'owner_id', 'owner_kind', 'trajectory', ...years, 'latent_cut', 'latent_as_of',
    'serious_before_cut_12m', 'first_serious_after_cut', 'first_serious_after_cut_type', 'serious_12m_after_cut',
    'first_serious_after_as_of', 'first_serious_after_as_of_type', 'serious_12m_after_as_of',
    'serious_days', 'reporting_propensity', 'neighbourhood', 'public_housing',
    'p_serious_12m_after_cut', 'p_serious_12m_after_as_of', ...validationCutDays(asOf).map((day) => `p_serious_12m_after_${isoDay(day)}`),
  ].join(',');
}

function firstIn(serious: readonly { day: number; outcome: SeriousOutcome }[], from: number, to: number): { day: number; outcome: SeriousOutcome } | null {
  let best: { day: number; outcome: SeriousOutcome } | null = null;
  for (const s of serious) if (s.day > from && s.day <= to && (best === null || s.day < best.day)) best = s;
  return best;
}

export function truthLine(
  seed: number,
  b: Building,
  latent: LatentProcess,
  outcomes: readonly HiddenOutcome[],
  result: SimulationResult,
  years: { first: number; last: number },
  asOf: number,
): string {
  const { first: firstYear, last: lastYear } = years;
  const cut = asOf - OUTCOME_WINDOW_DAYS;
  const fields: string[] = [b.bbl, String(b.borough.code), String(b.units), b.sizeClass, String(b.owner.id), b.owner.kind, latent.trajectory];
  for (let y = firstYear; y <= lastYear; y++) fields.push(latentAt(latent, dayOf(y, 1, 1)).toFixed(4));
  fields.push(latentAt(latent, cut).toFixed(4), latentAt(latent, asOf).toFixed(4));
  fields.push(String(result.serious.filter((s) => s.day > cut - 365 && s.day <= cut).length));
  const afterCut = firstIn(result.serious, cut, asOf);
  fields.push(afterCut ? isoDay(afterCut.day) : '', afterCut ? afterCut.outcome : '', afterCut ? '1' : '0');
  const afterAsOf = firstIn(result.serious, asOf, asOf + 365);
  fields.push(afterAsOf ? isoDay(afterAsOf.day) : '', afterAsOf ? afterAsOf.outcome : '', afterAsOf ? '1' : '0');
  const days = [...new Set(result.serious.map((s) => s.day))].sort((a, b) => a - b);
  fields.push(days.map(isoDay).join(';'), b.reporting.toFixed(3), b.neighbourhood.toFixed(3), b.publicHousing ? '1' : '0');
  const probabilities = new Map<number, string>();
  const probability = (from: number): string => {
    const known = probabilities.get(from) ?? seriousOutcomeProbability(seed, b, latent, outcomes, from).toFixed(5);
    probabilities.set(from, known);
    return known;
  };
  fields.push(probability(cut), probability(asOf), ...validationCutDays(asOf).map(probability));
  return csvLine(fields);
}
