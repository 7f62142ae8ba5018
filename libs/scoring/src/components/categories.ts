import { EventCategory } from '@bhis/domain';

/** Conditions inside the homes: what tenants live with. */
export const LIVING_CONDITION_CATEGORIES: readonly EventCategory[] = [
  'water_damage',
  'mold',
  'heat_hot_water',
  'pests',
  'lead_paint',
  'plumbing',
  'habitability',
  'sanitation',
  'security',
];

/** Hazards to life and limb in the building. */
export const SAFETY_CATEGORIES: readonly EventCategory[] = [
  'fire_safety',
  'structural',
  'electrical',
  'gas',
  'elevator',
  'boiler',
  'facade',
  'illegal_occupancy',
  'construction',
];

/** Leaks and mold: the signature of chronic neglect. */
export const WATER_CATEGORIES: readonly EventCategory[] = ['water_damage', 'mold'];

/** Building systems that fail when upkeep is deferred. */
export const BUILDING_SYSTEM_CATEGORIES: readonly EventCategory[] = [
  'plumbing',
  'structural',
  'facade',
  'boiler',
  'elevator',
  'heat_hot_water',
  'electrical',
];

/** Vacate orders for reasons other than fire (fire vacates are catastrophes: flagged, not scored). */
export const NON_FIRE_VACATE_CATEGORIES: readonly EventCategory[] = [
  'vacate',
  'illegal_occupancy',
  'habitability',
  'structural',
  'construction',
  'fire_safety',
  'other',
];
