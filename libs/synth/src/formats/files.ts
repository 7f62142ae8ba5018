import type { SourceKey } from './headers';

/** Output file per source: the fixture file names, and `<source_key>.csv` for the sets without a fixture. */
export const OUTPUT_FILES: Readonly<Record<SourceKey, string>> = {
  pluto: 'pluto_latest.csv',
  hpd_jurisdiction: 'hpd_jurisdiction.csv',
  hpd_violations: 'hpd_violations.csv',
  hpd_complaints: 'hpd_complaints_and_problems.csv',
  hpd_registrations: 'hpd_registrations.csv',
  hpd_registration_contacts: 'hpd_contacts.csv',
  hpd_litigations: 'hpd_litigations.csv',
  hpd_vacate_orders: 'hpd_vacateorders.csv',
  hpd_aep: 'hpd_aep.csv',
  hpd_underlying_conditions: 'hpd_underlying_conditions.csv',
  hpd_omo_charges: 'hpd_omo_charges.csv',
  hpd_hwo_charges: 'hpd_hwo_charges.csv',
  hpd_bedbugs: 'hpd_bedbugs.csv',
  dob_violations: 'dob_violations.csv',
  dob_ecb_violations: 'ecb_violations.csv',
  dob_safety_violations: 'dob_safety_violations.csv',
  dob_complaints: 'dob_complaints.csv',
  dob_job_filings: 'dobjobs.csv',
  dob_now_job_filings: 'dob_now_jobs.csv',
  dob_facades: 'dob_facades.csv',
  dob_vacate_orders: 'dob_vacate_orders.csv',
  nyc311: 'nyc311_service_requests.csv',
  nyc311_2010_2019: '311_service_requests_2010_2019.csv',
  fdny_vacates: 'fdny_vacates.csv',
  dof_tax_liens: 'dof_tax_lien_sale_list.csv',
  dohmh_rodents: 'dohmh_rodent_inspections.csv',
  evictions: 'executed_evictions.csv',
};

/** Files that describe buildings rather than events (not counted as events). */
export const REFERENCE_SOURCES: ReadonlySet<SourceKey> = new Set<SourceKey>(['pluto', 'hpd_jurisdiction', 'hpd_registration_contacts']);
