import { Grade } from '@bhis/domain';
import { BuildingFeatures } from './features';
import { maxScoreOf, minScoreOf } from './grades';

/**
 * HPD Alternative Enforcement Program selection: open B/C violations per unit issued in the last 5 years
 * and emergency repair charges (last 5 years, disaster repairs excluded), by building size.
 */
export const AEP_CRITERIA = [
  { min_units: 20, max_units: null, open_bc_per_unit: 3, emergency_repair_charges: 2500 },
  { min_units: 3, max_units: 19, open_bc_per_unit: 5, emergency_repair_charges: 5000 },
] as const;

/** Public Advocate Worst Landlord Watchlist level: average open B/C violations per unit (any age). */
export const WATCHLIST_CRITERIA = [
  { min_units: 3, max_units: 34, open_bc_per_unit: 3 },
  { min_units: 35, max_units: null, open_bc_per_unit: 2 },
] as const;

/**
 * HPD Underlying Conditions Program: B/C leak or mold violations in the last year in a share of the
 * units. Approximated as violations / units (the histogram does not say which unit a violation is in).
 */
export const UCP_CRITERIA = [
  { min_units: 3, max_units: 5, unit_share: 0.5 },
  { min_units: 6, max_units: 9, unit_share: 0.25 },
  { min_units: 10, max_units: null, unit_share: 0.15 },
] as const;

export function bandFor<T extends { min_units: number; max_units: number | null }>(bands: readonly T[], units: number): T | undefined {
  return bands.find((band) => units >= band.min_units && (band.max_units === null || units <= band.max_units));
}

export function meetsAepCriteria(f: BuildingFeatures): boolean {
  const band = bandFor(AEP_CRITERIA, f.units);
  if (band === undefined) return false;
  return f.open_bc_violations_5y >= band.open_bc_per_unit * f.units && f.emergency_repair_charges_5y >= band.emergency_repair_charges;
}

export function meetsWatchlistLevel(f: BuildingFeatures): boolean {
  const band = bandFor(WATCHLIST_CRITERIA, f.units);
  return band !== undefined && f.open_bc_violations >= band.open_bc_per_unit * f.units;
}

export function meetsUcpCriteria(f: BuildingFeatures): boolean {
  const band = bandFor(UCP_CRITERIA, f.units);
  return band !== undefined && f.water_bc_violations_12m >= band.unit_share * f.units;
}

/** The figures behind a published rule, so a user can check it by hand. */
export interface RuleCheck {
  met: boolean;
  units: number;
  /** The measured figures and the thresholds of the building's size band (null outside every band). */
  figures: Record<string, number>;
  thresholds: Record<string, number> | null;
}

export interface PublishedRuleChecks {
  aep: RuleCheck;
  ucp: RuleCheck;
  watchlist: RuleCheck;
}

/** The three published rules with their figures (docs/methodology.md, Public anchors). */
export function publishedRuleChecks(f: BuildingFeatures): PublishedRuleChecks {
  const aep = bandFor(AEP_CRITERIA, f.units);
  const ucp = bandFor(UCP_CRITERIA, f.units);
  const watchlist = bandFor(WATCHLIST_CRITERIA, f.units);
  return {
    aep: {
      met: meetsAepCriteria(f),
      units: f.units,
      figures: { open_bc_violations_5y: f.open_bc_violations_5y, emergency_repair_charges_5y: Math.round(f.emergency_repair_charges_5y * 100) / 100 },
      thresholds: aep ? { open_bc_violations_5y: aep.open_bc_per_unit * f.units, emergency_repair_charges_5y: aep.emergency_repair_charges } : null,
    },
    ucp: {
      met: meetsUcpCriteria(f),
      units: f.units,
      figures: { water_bc_violations_12m: f.water_bc_violations_12m },
      thresholds: ucp ? { water_bc_violations_12m: Math.round(ucp.unit_share * f.units * 100) / 100 } : null,
    },
    watchlist: {
      met: meetsWatchlistLevel(f),
      units: f.units,
      figures: { open_bc_violations: f.open_bc_violations },
      thresholds: watchlist ? { open_bc_violations: watchlist.open_bc_per_unit * f.units } : null,
    },
  };
}

export function hasCleanRecord(f: BuildingFeatures): boolean {
  return (
    f.open_bc_violations === 0 &&
    f.complaints_12m === 0 &&
    (f.registration_status === 'valid' || f.registration_status === 'not_required')
  );
}

/** A serious open hazard: class C lead paint, an active vacate order, an immediately hazardous DOB/ECB violation. */
export function hasSeriousOpenHazard(f: BuildingFeatures): boolean {
  return (
    f.open_c_lead_paint_violations > 0 ||
    f.active_hpd_vacates + f.active_dob_vacates + f.active_fdny_vacates > 0 ||
    f.open_hazardous_dob_violations > 0
  );
}

export interface AnchorRule {
  key: string;
  kind: 'floor' | 'ceiling';
  /** Floors lift the total to this grade's lowest score; ceilings hold it at this grade's highest. */
  grade: Grade;
  description: string;
  applies: (f: BuildingFeatures) => boolean;
}

/**
 * Public anchors the total is held to. The ceiling is applied first and the floors after it, so a floor
 * wins when both apply (an active AEP enrollment with every violation already closed stays at least D).
 */
export const ANCHOR_RULES: readonly AnchorRule[] = [
  {
    key: 'clean-record-ceiling',
    kind: 'ceiling',
    grade: 'C',
    description:
      'No open HPD class B/C violation (any age), no complaint (HPD, 311 or DOB) in the last 12 months, and a valid HPD registration where one is required: the total is held at or below the top of grade C.',
    applies: hasCleanRecord,
  },
  {
    key: 'serious-hazard-floor',
    kind: 'floor',
    grade: 'B',
    description:
      'A serious open hazard (an open HPD class C lead-paint violation, an active HPD, DOB or FDNY vacate order, or an open immediately hazardous DOB/ECB violation): the total is at least the bottom of grade B.',
    applies: hasSeriousOpenHazard,
  },
  {
    key: 'aep-active-floor',
    kind: 'floor',
    grade: 'D',
    description: 'Active Alternative Enforcement Program enrollment: the total is at least the bottom of grade D.',
    applies: (f) => f.active_aep > 0,
  },
  {
    key: 'aep-criteria-floor',
    kind: 'floor',
    grade: 'D',
    description:
      'Meets the HPD AEP selection criteria (20+ units: 3 open B/C violations per unit issued in the last 5 years and $2,500 of emergency repair charges; 3-19 units: 5 per unit and $5,000): at least the bottom of grade D.',
    applies: meetsAepCriteria,
  },
  {
    key: 'watchlist-level-floor',
    kind: 'floor',
    grade: 'C',
    description:
      'Open B/C violations at the Worst Landlord Watchlist level (3 per unit under 35 units, 2 per unit at 35+): at least the bottom of grade C.',
    applies: meetsWatchlistLevel,
  },
  {
    key: 'ucp-criteria-floor',
    kind: 'floor',
    grade: 'C',
    description:
      'B/C leak or mold violations in the last 12 months at the Underlying Conditions Program level (50% of units for 3-5 units, 25% for 6-9, 15% for 10+): at least the bottom of grade C.',
    applies: meetsUcpCriteria,
  },
];

export function anchorTarget(rule: AnchorRule): number {
  return rule.kind === 'floor' ? minScoreOf(rule.grade) : maxScoreOf(rule.grade);
}
