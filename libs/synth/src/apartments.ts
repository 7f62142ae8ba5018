import type { Building } from './buildings';
import type { Rng } from './rng';

const LETTERS = 'ABCDEFGHJKLMNPRS';

/** An apartment label and its story, as HPD writes them (`3L`, `1FL`, `BSMT`...). */
export function pickApartment(rng: Rng, building: Building): { apartment: string; story: string; unit: number } {
  const unit = rng.int(0, Math.max(0, building.units - 1));
  if (building.units <= 2) {
    const floor = unit + 1;
    return rng.chance(0.1) ? { apartment: 'BSMT', story: 'Basement', unit } : { apartment: `${floor}FL`, story: String(floor), unit };
  }
  const perFloor = Math.max(1, Math.ceil(building.units / Math.max(1, building.stories)));
  const floor = 1 + Math.floor(unit / perFloor);
  const letter = LETTERS[(unit % perFloor) % LETTERS.length];
  const label = perFloor > LETTERS.length ? `${floor}${String((unit % perFloor) + 1).padStart(2, '0')}` : `${floor}${letter}`;
  return { apartment: label, story: String(floor), unit };
}
