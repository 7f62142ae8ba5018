import { BuildingFeatures } from './features';
import { BuildingInput } from './input';
import { isPublicHousingBuilding, PUBLIC_HOUSING_OWNER, PUBLIC_HOUSING_PROGRAMS } from './public-housing';

export { isPublicHousingBuilding, PUBLIC_HOUSING_OWNER, PUBLIC_HOUSING_PROGRAMS } from './public-housing';

/**
 * Buildings whose public record cannot support a grade at either end of the scale. Their grade is held
 * between the bottom of B and the top of D, their confidence is the lowest tier, and they carry a flag
 * and a reason. They stay out of peer-group statistics, are listed apart in portfolio "worst" lists, and
 * monitors hear of their grade changes only when asked.
 */
export interface KnownLimit {
  flag: 'public-housing' | 'units-unknown';
  reason: string;
}

/** PLUTO classes of apartment buildings (walk-up C*, elevator D*): 3 units or more by definition. */
const APARTMENT_CLASS = /^[CD]/i;
/** PLUTO and HPD unit counts further apart than this ratio cannot both be right. */
export const UNIT_COUNT_DISAGREEMENT_RATIO = 3;

export const PUBLIC_HOUSING_REASON =
  'Public housing (HPD ManagementProgram NYCHA or a Housing Authority owner): HPD does not inspect or enforce here, so the HPD records that drive the score do not exist for it; the grade is held between B and D.';

export function isPublicHousing(input: BuildingInput): boolean {
  return isPublicHousingBuilding(input.building);
}

/** Why the unit count (the denominator of every rate) is not reliable, or null when it is. */
export function unitCountProblem(input: BuildingInput, features: BuildingFeatures): string | null {
  const { residential_units: pluto, hpd_legal_units: hpd, building_class: cls } = input.building;
  if (features.units === 0) return 'no residential unit count in PLUTO or HPD';
  if (cls !== null && APARTMENT_CLASS.test(cls) && features.units < 3) return `an apartment building (class ${cls}) listed with ${features.units} units`;
  if (cls !== null && /^D/i.test(cls) && features.units < 6) return `an elevator apartment building (class ${cls}) listed with ${features.units} units`;
  if (pluto > 0 && hpd !== null && hpd > 0 && Math.max(pluto, hpd) > UNIT_COUNT_DISAGREEMENT_RATIO * Math.min(pluto, hpd)) {
    return `PLUTO (${pluto}) and HPD (${hpd}) unit counts disagree`;
  }
  return null;
}

export function knownLimitsOf(input: BuildingInput, features: BuildingFeatures): KnownLimit[] {
  const limits: KnownLimit[] = [];
  if (isPublicHousing(input)) limits.push({ flag: 'public-housing', reason: PUBLIC_HOUSING_REASON });
  const units = unitCountProblem(input, features);
  if (units !== null) {
    limits.push({
      flag: 'units-unknown',
      reason: `Unit count not reliable (${units}): every per-unit rate depends on it, so the grade is held between B and D.`,
    });
  }
  return limits;
}

export const KNOWN_LIMIT_RULES: readonly { key: KnownLimit['flag']; rule: string }[] = [
  {
    key: 'public-housing',
    rule: `HPD jurisdiction ManagementProgram in (${PUBLIC_HOUSING_PROGRAMS.join(', ')}), or an owner name matching ${PUBLIC_HOUSING_OWNER.source}`,
  },
  {
    key: 'units-unknown',
    rule: `no unit count (PLUTO and HPD); an apartment class (C*, D*) with fewer than 3 units or an elevator class (D*) with fewer than 6; or PLUTO and HPD counts more than ${UNIT_COUNT_DISAGREEMENT_RATIO}x apart`,
  },
];
