import { COMPONENT_KEYS, ComponentKey } from '@bhis/domain';
import { FITTED_CONSTANTS } from './fitted-constants';

/**
 * The constants of the total that are fitted, not chosen: the weight of each component and the size
 * exponent. `bhis validate --calibrate` fits them (libs/score-runner/src/calibration.ts) and writes
 * fitted-constants.ts; `fitted_by` names the run that did.
 */
export interface FittedModel {
  fitted_by: string | null;
  component_weights: Record<ComponentKey, number>;
  /**
   * The record signal of the total grows with size: the components' log-health is multiplied by
   * (max(units, from_units) / from_units) ^ exponent, so a building without records stays at 0 whatever its size.
   */
  size: { exponent: number; from_units: number };
}

function checked(model: FittedModel): FittedModel {
  const sum = COMPONENT_KEYS.reduce((s, k) => s + model.component_weights[k], 0);
  if (COMPONENT_KEYS.some((k) => !(model.component_weights[k] >= 0)) || Math.abs(sum - 1) > 1e-6) {
    throw new Error('fitted-constants.ts: the component weights must be non-negative and sum to 1');
  }
  if (!(model.size.exponent >= 0) || !(model.size.from_units >= 1)) throw new Error('fitted-constants.ts: bad size term');
  return model;
}

export const FITTED_MODEL: Readonly<FittedModel> = checked(FITTED_CONSTANTS as FittedModel);

/** The multiplier of the components' log-health for a building of `units` units. */
export function sizeFactor(units: number, size: FittedModel['size'] = FITTED_MODEL.size): number {
  return Math.pow(Math.max(units, size.from_units) / size.from_units, size.exponent);
}

/** The source of fitted-constants.ts for a fitted model. */
export function fittedConstantsSource(model: FittedModel): string {
  return `// Written by \`bhis validate --calibrate\` (libs/score-runner/src/calibration.ts); docs/methodology.md, Constants.
export const FITTED_CONSTANTS = ${JSON.stringify(model, null, 2)};
`;
}
