import { COMPONENT_KEYS, ComponentKey } from '@bhis/domain';
import { FITTED_CONSTANTS } from './fitted-constants';

/**
 * The constants that are fitted, not chosen: the weight of each component in the total, the knee and
 * the size exponent of the total, and the factor on every signal's half-life. `bhis validate --calibrate`
 * fits them (libs/score-runner/src/calibration.ts) and writes fitted-constants.ts; `fitted_by` names the
 * run that did.
 */
export interface FittedModel {
  fitted_by: string | null;
  component_weights: Record<ComponentKey, number>;
  /**
   * The record signal of the total grows with size: the components' log-health is multiplied by
   * (max(units, from_units) / from_units) ^ exponent, so a building without records stays at 0 whatever its size.
   */
  size: { exponent: number; from_units: number };
  /**
   * The total combines the components on a log scale: each component's log-health plus this knee, so a
   * first record moves a clean building's total less than a log would and a component at 0 still counts
   * (total-score.ts).
   */
  knee: number;
  /** Every signal's half-life (Components) is multiplied by this factor. */
  half_life_factor: number;
  /**
   * Buildings of up to `to_units` units take their own factor on every half-life: a few records a year
   * rank their hidden condition better over a longer memory than a large building's many records do.
   * The longer memory keeps more records, so their combined log-health is multiplied by `level`, fitted
   * so that they stand against larger buildings as their outcomes do.
   */
  small_buildings: { to_units: number; half_life_factor: number; level: number };
  /**
   * The combined log-health is multiplied by this scale: the smallest of CALIBRATION_GRID.scales at which
   * the public anchors' floors lift at most CALIBRATION_GRID.max_floor_share of the training buildings.
   */
  scale: number;
  /** The confidence's expected move and interval (confidence.ts), fitted by libs/score-runner/src/confidence-calibration.ts. */
  confidence: FittedConfidence;
}

/**
 * The expected move of a total over 12 months, in points: base + spread x the confirmed records' Poisson
 * half-spread of the total (points) + uncorroborated x (1 - corroboration), at least MIN_EXPECTED_MOVE
 * (confidence.ts); and the interval's half-width in expected moves for each confidence tier.
 */
export interface FittedConfidence {
  move: { base: number; spread: number; uncorroborated: number };
  interval_multipliers: { high: number; medium: number; low: number; insufficient: number };
}

function checked(model: FittedModel): FittedModel {
  const sum = COMPONENT_KEYS.reduce((s, k) => s + model.component_weights[k], 0);
  if (COMPONENT_KEYS.some((k) => !(model.component_weights[k] >= 0)) || Math.abs(sum - 1) > 1e-6) {
    throw new Error('fitted-constants.ts: the component weights must be non-negative and sum to 1');
  }
  if (!(model.size.exponent >= 0) || !(model.size.from_units >= 1)) throw new Error('fitted-constants.ts: bad size term');
  if (!(model.knee > 0) || !(model.half_life_factor > 0) || !(model.scale > 0)) throw new Error('fitted-constants.ts: the knee and the half-life factor must be positive');
  if (!(model.small_buildings?.half_life_factor > 0) || !(model.small_buildings.to_units >= 0) || !(model.small_buildings.level > 0)) throw new Error('fitted-constants.ts: bad small-building half-life factor');
  const { move, interval_multipliers: multipliers } = model.confidence;
  if (![move.base, move.spread, move.uncorroborated].every(Number.isFinite) || !Object.values(multipliers).every((m) => m >= 0)) {
    throw new Error('fitted-constants.ts: bad confidence constants');
  }
  return model;
}

export const FITTED_MODEL: Readonly<FittedModel> = checked(FITTED_CONSTANTS as FittedModel);

/** What the total's combination reads of the fitted model. */
export type TotalModel = Pick<FittedModel, 'component_weights' | 'size' | 'knee' | 'scale'> & { small_buildings?: FittedModel['small_buildings'] };

/** The multiplier of the components' log-health for a building of `units` units. */
export function sizeFactor(units: number, size: FittedModel['size'] = FITTED_MODEL.size): number {
  return Math.pow(Math.max(units, size.from_units) / size.from_units, size.exponent);
}

/** The small buildings' level (small_buildings), 1 for larger ones and for a model without it. */
export function smallBuildingLevel(units: number, small: FittedModel['small_buildings'] | undefined): number {
  return small !== undefined && units <= small.to_units ? small.level : 1;
}

/** The factor on every signal's half-life for a building of `units` units (small_buildings below the size). */
export function halfLifeFactorOf(units: number, model: Pick<FittedModel, 'half_life_factor' | 'small_buildings'> = FITTED_MODEL): number {
  return units <= model.small_buildings.to_units ? model.small_buildings.half_life_factor : model.half_life_factor;
}

/** The source of fitted-constants.ts for a fitted model. */
export function fittedConstantsSource(model: FittedModel): string {
  return `// Written by \`bhis validate --calibrate\` (libs/score-runner/src/calibration.ts); docs/methodology.md, Constants.
export const FITTED_CONSTANTS = ${JSON.stringify(model, null, 2)};
`;
}

/** The candidates `bhis validate --calibrate` compares (libs/score-runner/src/calibration.ts). */
export const CALIBRATION_GRID = { half_life_factors: [0.35, 0.5, 0.7, 1], knees: [0.02, 0.05, 0.1, 0.2], scales: [1, 1.5, 2, 3, 4], max_floor_share: 0.05, small_building_units: 5 } as const;
