import { BuildingFacts } from './input';

/** HPD jurisdiction `ManagementProgram` values of public housing (NYC Housing Authority). */
export const PUBLIC_HOUSING_PROGRAMS: readonly string[] = ['NYCHA'];
/** Owner names of public housing when the management program is missing. */
export const PUBLIC_HOUSING_OWNER = /\b(NYCHA|N\.?Y\.?C\.? HOUSING AUTHORITY|NEW YORK CITY HOUSING AUTHORITY)\b/i;

/**
 * Public housing, by its facts alone: HPD's management program, or a Housing Authority owner. HPD
 * neither inspects it nor requires it to register (known-limits.ts, features.ts); the validation
 * harness applies the same rule to the loaded buildings.
 */
export function isPublicHousingBuilding(building: Pick<BuildingFacts, 'management_program' | 'owner_name'>): boolean {
  const program = building.management_program?.trim().toUpperCase();
  if (program !== undefined && PUBLIC_HOUSING_PROGRAMS.includes(program)) return true;
  const owner = building.owner_name;
  return owner != null && PUBLIC_HOUSING_OWNER.test(owner);
}
