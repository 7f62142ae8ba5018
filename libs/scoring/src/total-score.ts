import { COMPONENT_KEYS, ComponentKey } from '@bhis/domain';
import { ScoreAdjustment } from './explanation';
import { FITTED_MODEL, FittedModel, sizeFactor } from './fitted-model';
import { BuildingFeatures } from './features';
import { ANCHOR_RULES, anchorTarget } from './public-anchors';

/** A component at 100 would make the total 100 alone; the combination caps each at this. */
export const MAX_COMPONENT_IN_TOTAL = 99.9;

/**
 * The total before anchors: 100 minus the weighted geometric mean of the components' complements, its
 * log scaled by the building's size factor (fitted-model.ts),
 * total = 100 * (1 - prod((1 - s_i / 100) ^ w_i) ^ size) with the weights summing to 1. Equal components
 * of a building at the smallest size give that same total; one very bad component pulls the total harder
 * than an arithmetic mean would; a building without records is at 0 whatever its size.
 */
export function combineComponents(
  scores: Readonly<Record<ComponentKey, number>>,
  units: number,
  model: Pick<FittedModel, 'component_weights' | 'size'> = FITTED_MODEL,
): number {
  return totalOfLogHealth(combinedLogHealth(scores, units, model));
}

/**
 * The combined log-health of the components, -ln(1 - total / 100): the weighted sum of each component's
 * -ln(1 - score / 100) (its index over its scale) times the size factor. Additive over components, so a
 * record that moves one component moves it by the same amount whatever the others are.
 */
export function combinedLogHealth(
  scores: Readonly<Record<ComponentKey, number>>,
  units: number,
  model: Pick<FittedModel, 'component_weights' | 'size'> = FITTED_MODEL,
): number {
  let logHealth = 0;
  for (const key of COMPONENT_KEYS) {
    const score = Math.min(scores[key], MAX_COMPONENT_IN_TOTAL);
    logHealth -= model.component_weights[key] * Math.log1p(-score / 100);
  }
  return logHealth * sizeFactor(units, model.size);
}

export function totalOfLogHealth(logHealth: number): number {
  return 100 * (1 - Math.exp(-logHealth));
}

/** The total (integer) after the public anchors, with the adjustments that changed it. */
export function applyAnchors(rawTotal: number, features: BuildingFeatures): { total: number; adjustments: ScoreAdjustment[] } {
  let total = Math.round(rawTotal);
  const adjustments: ScoreAdjustment[] = [];
  for (const rule of ANCHOR_RULES) {
    if (!rule.applies(features)) continue;
    const target = anchorTarget(rule);
    const next = rule.kind === 'floor' ? Math.max(total, target) : Math.min(total, target);
    if (next !== total) {
      adjustments.push({ rule: rule.key, description: rule.description, from: total, to: next });
      total = next;
    }
  }
  return { total, adjustments };
}
