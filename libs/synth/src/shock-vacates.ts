import type { Building } from './buildings';
import type { Shock } from './latent';

/**
 * The vacates a latent shock leaves: a fire vacates with `fire` (HPD orders it, except at public housing;
 * FDNY too with `fdnyAfterFire` at 6+ units), a large structural shock with `structural`.
 */
export const SHOCK_VACATE = { fire: 0.55, fdnyAfterFire: 0.3, structuralSize: 1.8, structural: 0.3 } as const;

/** The chance that a shock leaves a serious outcome (a vacate order) at the building, as vacatesFromShocks (monthly-records.ts) draws it. */
export function shockVacateChance(building: Pick<Building, 'units' | 'publicHousing'>, shock: Pick<Shock, 'fire' | 'size'>): number {
  if (shock.fire) {
    if (building.units < 1) return 0;
    return SHOCK_VACATE.fire * (!building.publicHousing ? 1 : building.units >= 6 ? SHOCK_VACATE.fdnyAfterFire : 0);
  }
  return shock.size > SHOCK_VACATE.structuralSize ? SHOCK_VACATE.structural : 0;
}
