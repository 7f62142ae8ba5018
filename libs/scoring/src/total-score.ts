import { COMPONENT_KEYS, ComponentKey } from '@bhis/domain';
import { COMPONENT_WEIGHTS } from './components';
import { ScoreAdjustment } from './explanation';
import { BuildingFeatures } from './features';
import { ANCHOR_RULES, anchorTarget } from './public-anchors';

/** A component at 100 would make the total 100 alone; the combination caps each at this. */
export const MAX_COMPONENT_IN_TOTAL = 99.9;

/**
 * The total before anchors: 100 minus the weighted geometric mean of the components' complements,
 * total = 100 * (1 - prod((1 - s_i / 100) ^ w_i)) with the weights summing to 1. Equal components give
 * that same total; one very bad component pulls the total harder than an arithmetic mean would.
 */
export function combineComponents(scores: Readonly<Record<ComponentKey, number>>): number {
  let logHealth = 0;
  for (const key of COMPONENT_KEYS) {
    const score = Math.min(scores[key], MAX_COMPONENT_IN_TOTAL);
    logHealth += COMPONENT_WEIGHTS[key] * Math.log1p(-score / 100);
  }
  return 100 * (1 - Math.exp(logHealth));
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
