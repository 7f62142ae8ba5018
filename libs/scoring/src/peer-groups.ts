/**
 * Peer groups: buildings are compared within `<size band>_<era>_<type>`, e.g. `large_pre-war_walkup`.
 * The health score ranks a building inside its peer group, and 311 propensity is normalized per size band.
 */

export const SIZE_BANDS = [
  { key: 'small-home', min_units: 0, max_units: 2, description: 'one- and two-family homes (0-2 residential units)' },
  { key: 'small', min_units: 3, max_units: 5, description: '3-5 units' },
  { key: 'mid-size', min_units: 6, max_units: 19, description: '6-19 units' },
  { key: 'large', min_units: 20, max_units: 99, description: '20-99 units' },
  { key: 'very-large', min_units: 100, max_units: null, description: '100 units or more' },
] as const;
export type SizeBand = (typeof SIZE_BANDS)[number]['key'];

export const ERAS = [
  { key: 'pre-war', description: 'built before 1940' },
  { key: 'post-war', description: 'built 1940-1979' },
  { key: 'modern', description: 'built 1980 or later' },
  { key: 'unknown-era', description: 'year built missing or implausible' },
] as const;
export type Era = (typeof ERAS)[number]['key'];

export const BUILDING_TYPES = [
  { key: 'house', classes: 'A*, B* (one- and two-family)' },
  { key: 'walkup', classes: 'C* except C6, C8 (walk-up apartments)' },
  { key: 'elevator', classes: 'D* except D0, D4 (elevator apartments)' },
  { key: 'co-op', classes: 'C6, C8, D0, D4 (cooperatives)' },
  { key: 'condo', classes: 'R* (condominiums)' },
  { key: 'mixed-use', classes: 'S* (residence with stores or offices)' },
  { key: 'other', classes: 'any other or missing class with residential units' },
] as const;
export type BuildingType = (typeof BUILDING_TYPES)[number]['key'];

export type PeerGroup = `${SizeBand}_${Era}_${BuildingType}`;

/** All allowed peer group names (size x era x type). */
export const PEER_GROUPS: readonly PeerGroup[] = SIZE_BANDS.flatMap((size) =>
  ERAS.flatMap((era) => BUILDING_TYPES.map((type) => `${size.key}_${era.key}_${type.key}` as PeerGroup)),
);

export const PRE_WAR_BEFORE = 1940;
export const MODERN_FROM = 1980;
/** PLUTO carries 0 and a few impossible years; anything outside this range is an unknown era. */
export const PLAUSIBLE_YEAR_BUILT = { min: 1700, max: 2100 } as const;

export function sizeBandOf(units: number): SizeBand {
  for (const band of SIZE_BANDS) {
    if (band.max_units === null || units <= band.max_units) return band.key;
  }
  return 'very-large';
}

export function eraOf(yearBuilt: number | null): Era {
  if (yearBuilt === null || yearBuilt < PLAUSIBLE_YEAR_BUILT.min || yearBuilt > PLAUSIBLE_YEAR_BUILT.max) return 'unknown-era';
  if (yearBuilt < PRE_WAR_BEFORE) return 'pre-war';
  if (yearBuilt < MODERN_FROM) return 'post-war';
  return 'modern';
}

export function buildingTypeOf(buildingClass: string | null): BuildingType {
  const code = (buildingClass ?? '').trim().toUpperCase();
  if (code === 'C6' || code === 'C8' || code === 'D0' || code === 'D4') return 'co-op';
  switch (code.charAt(0)) {
    case 'A':
    case 'B':
      return 'house';
    case 'C':
      return 'walkup';
    case 'D':
      return 'elevator';
    case 'R':
      return 'condo';
    case 'S':
      return 'mixed-use';
    default:
      return 'other';
  }
}

export function peerGroupOf(units: number, yearBuilt: number | null, buildingClass: string | null): PeerGroup {
  return `${sizeBandOf(units)}_${eraOf(yearBuilt)}_${buildingTypeOf(buildingClass)}`;
}

export function sizeBandOfPeerGroup(peerGroup: string): string {
  return peerGroup.slice(0, peerGroup.indexOf('_'));
}

/**
 * Prior peer rates of tenant reports (HPD complaints and housing 311 requests) per residential unit per
 * year, by size band. The complaint burden is measured against them (times the area propensity when the
 * feature pass supplies one); a run may override them with measured peer medians (`context.peer_complaint_rate`).
 */
export const PEER_COMPLAINT_RATE_PRIOR: Readonly<Record<SizeBand, number>> = {
  'small-home': 0.1,
  small: 0.3,
  'mid-size': 0.35,
  large: 0.35,
  'very-large': 0.3,
};

/** Bounds on the area complaint propensity, so a neighbourhood adjustment cannot dominate the measure. */
export const AREA_PROPENSITY_BOUNDS = { min: 0.5, max: 2 } as const;
