import { COMPONENT_KEYS, ComponentKey } from '@bhis/domain';
import { ScoreAdjustment } from './explanation';
import { FITTED_MODEL, sizeFactor, smallBuildingLevel, TotalModel } from './fitted-model';
import { BuildingFeatures } from './features';
import { ANCHOR_RULES, anchorTarget } from './public-anchors';

/** A component at 100 would make the total 100 alone; the combination caps each at this. */
export const MAX_COMPONENT_IN_TOTAL = 99.9;

/**
 * The total before anchors, 100 x (1 - exp(-H)), from the combined log-health H of the components:
 *
 *     G = prod_i ((h_i + knee) / knee) ^ w_i,   H = scale x knee x (G - 1) x (units / 3) ^ size exponent
 *
 * (times the small buildings' fitted level up to their size, FittedModel.small_buildings)
 * where h_i = -ln(1 - s_i / 100) is component i's log-health (its index over its scale) and the
 * weights sum to 1. The ranking is by sum_i w_i ln(h_i + knee) + exponent x ln(units / 3): a log
 * scale, so a component doubling moves the total by the same step at any level, and size counts as
 * much as the fit says it drives the outcomes. Equal components of a building of 3 units give that same
 * log-health; a building without records is at 0 whatever its size.
 */
export function combineComponents(scores: Readonly<Record<ComponentKey, number>>, units: number, model: TotalModel = FITTED_MODEL): number {
  return totalOfLogHealth(combinedLogHealth(scores, units, model));
}

/** The combined log-health H of the components, -ln(1 - total / 100) (combineComponents). */
export function combinedLogHealth(scores: Readonly<Record<ComponentKey, number>>, units: number, model: TotalModel = FITTED_MODEL): number {
  let logG = 0;
  for (const key of COMPONENT_KEYS) {
    const health = -Math.log1p(-Math.min(scores[key], MAX_COMPONENT_IN_TOTAL) / 100);
    logG += model.component_weights[key] * Math.log1p(health / model.knee);
  }
  return model.scale * model.knee * Math.expm1(logG) * sizeFactor(units, model.size) * smallBuildingLevel(units, model.small_buildings);
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
