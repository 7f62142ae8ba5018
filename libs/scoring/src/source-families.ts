/** The 25 source keys and the families the confidence assessment groups them into. */

export const SOURCE_KEYS = [
  'pluto',
  'hpd_jurisdiction',
  'hpd_violations',
  'hpd_complaints',
  'hpd_registrations',
  'hpd_registration_contacts',
  'hpd_litigations',
  'hpd_vacate_orders',
  'hpd_aep',
  'hpd_underlying_conditions',
  'hpd_emergency_repairs',
  'hpd_bedbugs',
  'dob_violations',
  'dob_ecb_violations',
  'dob_safety_violations',
  'dob_complaints',
  'dob_job_filings',
  'dob_now_job_filings',
  'dob_facades',
  'dob_vacate_orders',
  'nyc311',
  'fdny_vacates',
  'dof_tax_liens',
  'dohmh_rodents',
  'evictions',
] as const;
export type SourceKey = (typeof SOURCE_KEYS)[number];

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
export const FAMILY_OF_SOURCE: Readonly<Record<SourceKey, SourceFamily>> = {
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
