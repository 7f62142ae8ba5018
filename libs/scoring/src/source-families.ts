import { SOURCE_KEYS, SourceKey } from '@bhis/sources';

/** The families the score groups the sources of the registry (libs/sources) into. */


export const SOURCE_FAMILIES = [
  'property',
  'hpd_violations',
  'complaints',
  'registrations',
  'dob',
  'permits',
  'legal',
  'emergency_repairs',
  'financial',
  'health',
  'evictions',
] as const;
export type SourceFamily = (typeof SOURCE_FAMILIES)[number];

/**
 * Sources of one family are not independent of each other (same agency, same inspections or the same
 * complaint counted by two channels); different families are. `property` holds the building facts and
 * is not counted as evidence.
 */
/** A source of the registry the score reads nothing from, and why. */
export interface NotScored {
  readonly notScored: string;
}

/**
 * What the score does with every source of the registry: the family it counts in, or why it is not
 * scored. Typed over every key of the registry, so a new source does not compile until it is here;
 * `checkScoringUse` says the same at the scoring worker's start.
 */
export const SCORING_USE: Readonly<Record<SourceKey, SourceFamily | NotScored>> = {
  pluto: 'property',
  hpd_jurisdiction: 'property',
  hpd_violations: 'hpd_violations',
  hpd_complaints: 'complaints',
  nyc311: 'complaints',
  hpd_registrations: 'registrations',
  hpd_registration_contacts: 'registrations',
  dob_violations: 'dob',
  dob_safety_violations: 'dob',
  dob_complaints: 'dob',
  dob_facades: 'dob',
  dob_job_filings: 'permits',
  dob_now_job_filings: 'permits',
  hpd_litigations: 'legal',
  hpd_vacate_orders: 'legal',
  hpd_aep: 'legal',
  hpd_underlying_conditions: 'legal',
  dob_vacate_orders: 'legal',
  fdny_vacates: 'legal',
  hpd_emergency_repairs: 'emergency_repairs',
  dof_tax_liens: 'financial',
  dob_ecb_violations: 'financial',
  dohmh_rodents: 'health',
  hpd_bedbugs: 'health',
  evictions: 'evictions',
};

/** The family of each scored source (a source that is not scored has none). */
export const FAMILY_OF_SOURCE: Readonly<Partial<Record<SourceKey, SourceFamily>>> = Object.fromEntries(
  SOURCE_KEYS.flatMap((key) => {
    const use = SCORING_USE[key];
    return typeof use === 'string' ? [[key, use]] : [];
  }),
);

/** Sources the registry has and the score neither uses nor declares unused (empty unless a key was forced in). */
export function undeclaredSources(keys: readonly string[] = SOURCE_KEYS): string[] {
  const use = SCORING_USE as Readonly<Record<string, SourceFamily | NotScored | undefined>>;
  return keys.filter((key) => {
    const entry = use[key];
    return typeof entry !== 'string' && !(entry && entry.notScored.trim() !== '');
  });
}

/** Throws, naming them, when a source of the registry is neither scored nor declared unused with a reason. */
export function checkScoringUse(keys: readonly string[] = SOURCE_KEYS): void {
  const missing = undeclaredSources(keys);
  if (missing.length > 0) throw new Error(`sources neither scored nor declared unused with a reason (libs/scoring/src/source-families.ts): ${missing.join(', ')}`);
}

export const FAMILY_DESCRIPTIONS: Readonly<Record<SourceFamily, string>> = {
  property: 'Building facts (PLUTO, HPD jurisdiction): denominators and peer groups, not evidence',
  hpd_violations: 'HPD Housing Maintenance Code violations',
  complaints: 'Tenant reports: HPD complaints and housing-related 311 requests (one complaint counted once)',
  registrations: 'HPD multiple dwelling registrations and their contacts',
  dob: 'Department of Buildings violations, safety violations, complaints and facade filings',
  permits: 'DOB job filings (BIS and DOB NOW): reinvestment',
  legal: 'HPD litigation, vacate orders (HPD, DOB, FDNY), AEP and UCP',
  emergency_repairs: 'HPD emergency repairs (OMO and handyman work orders)',
  financial: 'DOF tax lien sale lists and ECB (OATH) violations with their balances',
  health: 'DOHMH rodent inspections and HPD bedbug filings',
  evictions: 'Executed residential evictions (city marshals)',
};

/** Families whose events count as evidence of the building's condition (everything but `property`). */
export const EVIDENCE_FAMILIES: readonly SourceFamily[] = SOURCE_FAMILIES.filter((family) => family !== 'property');

/**
 * Families whose events point towards or away from distress. Permits are reinvestment and registrations
 * are paperwork, so they do not vote in the corroboration dimension.
 */
export const DIRECTIONAL_FAMILIES: readonly SourceFamily[] = [
  'hpd_violations',
  'complaints',
  'dob',
  'legal',
  'emergency_repairs',
  'financial',
  'health',
  'evictions',
];

export const FAMILY_INDEX: Readonly<Record<SourceFamily, number>> = Object.fromEntries(
  SOURCE_FAMILIES.map((family, i) => [family, i]),
) as Record<SourceFamily, number>;
