export const GRADES = ['A', 'B', 'C', 'D', 'F'] as const;
export type Grade = (typeof GRADES)[number];

export function isGrade(value: string): value is Grade {
  return (GRADES as readonly string[]).includes(value);
}

export const COMPONENT_KEYS = [
  'living_conditions',
  'building_safety',
  'complaint_burden',
  'management_quality',
  'financial_distress',
  'deferred_maintenance',
  'legal_enforcement',
] as const;
export type ComponentKey = (typeof COMPONENT_KEYS)[number];

export const SCORER_ID = 'distress_v10_2';
