import { AgeBucket } from './age-buckets';
import { BuildingFacts, BuildingInput, HistogramRow, SourceFreshnessMap } from './input';
import { SOURCE_KEYS, SourceKey } from '@bhis/sources';
import { FAMILY_OF_SOURCE } from './source-families';

/** Builders of model inputs for the specs and the benchmark (not part of the public API). */

export const AS_OF = '2025-06-30';

const CADENCE: Partial<Record<SourceKey, string>> = {
  pluto: 'quarterly',
  hpd_jurisdiction: 'monthly',
  hpd_registrations: 'monthly',
  hpd_registration_contacts: 'monthly',
  hpd_litigations: 'monthly',
  hpd_aep: 'monthly',
  hpd_bedbugs: 'yearly',
  dob_vacate_orders: 'static',
  fdny_vacates: 'rarely',
  dof_tax_liens: 'per_sale',
};

export function freshSources(asOf = AS_OF): SourceFreshnessMap {
  const out: SourceFreshnessMap = {};
  for (const key of SOURCE_KEYS) {
    out[key] = { last_refreshed_at: `${asOf}T04:00:00Z`, latest_record_date: asOf, cadence: CADENCE[key] ?? 'daily' };
  }
  return out;
}

const SHARED_SOURCES = freshSources();

export function facts(overrides: Partial<BuildingFacts> = {}): BuildingFacts {
  return {
    bbl: '1000010001',
    residential_units: 30,
    total_units: 31,
    year_built: 1925,
    building_class: 'C1',
    num_buildings: 1,
    in_hpd_jurisdiction: true,
    hpd_legal_units: 30,
    registration_end_date: '2026-09-01',
    ...overrides,
  };
}

export function input(overrides: Partial<BuildingInput> & { facts?: Partial<BuildingFacts> } = {}): BuildingInput {
  const { facts: factOverrides, ...rest } = overrides;
  return {
    building: facts(factOverrides),
    as_of: AS_OF,
    histogram: [],
    sources: SHARED_SOURCES,
    aggregates: { heat_season_complaints: 0 },
    ...rest,
  };
}

const SOURCE_OF_TYPE: Record<HistogramRow['event_type'], SourceKey> = {
  hpd_violation: 'hpd_violations',
  hpd_violation_closed: 'hpd_violations',
  hpd_violation_reopened: 'hpd_violations',
  hpd_complaint: 'hpd_complaints',
  hpd_complaint_closed: 'hpd_complaints',
  hpd_litigation: 'hpd_litigations',
  hpd_vacate_order: 'hpd_vacate_orders',
  hpd_vacate_rescinded: 'hpd_vacate_orders',
  aep_enrollment: 'hpd_aep',
  aep_discharged: 'hpd_aep',
  ucp_order: 'hpd_underlying_conditions',
  emergency_repair_omo: 'hpd_emergency_repairs',
  emergency_repair_hwo: 'hpd_emergency_repairs',
  bedbug_filing: 'hpd_bedbugs',
  registration_filed: 'hpd_registrations',
  dob_violation: 'dob_violations',
  dob_violation_resolved: 'dob_violations',
  ecb_violation: 'dob_ecb_violations',
  ecb_violation_resolved: 'dob_ecb_violations',
  dob_safety_violation: 'dob_safety_violations',
  dob_complaint: 'dob_complaints',
  dob_job_filing: 'dob_job_filings',
  dob_now_job_filing: 'dob_now_job_filings',
  facade_filing: 'dob_facades',
  dob_vacate_order: 'dob_vacate_orders',
  complaint_311: 'nyc311',
  fdny_vacate: 'fdny_vacates',
  tax_lien_sale_listing: 'dof_tax_liens',
  rodent_inspection: 'dohmh_rodents',
  eviction: 'evictions',
};

let nextId = 1;

/** A histogram cell; the source follows from the event type unless given. */
export function cell(partial: Partial<HistogramRow> & Pick<HistogramRow, 'event_type'>): HistogramRow {
  const count = partial.count ?? 1;
  const ids = partial.newest_event_ids ?? Array.from({ length: Math.min(3, count) }, () => String(nextId++));
  return {
    source: SOURCE_OF_TYPE[partial.event_type],
    category: 'habitability',
    severity: 'high',
    open: false,
    scoring_excluded: false,
    age_bucket: '6-12m' as AgeBucket,
    count,
    amount: 0,
    newest_occurred_on: '2025-01-15',
    ...partial,
    newest_event_ids: ids,
  };
}

export function familyOf(row: HistogramRow): string {
  return FAMILY_OF_SOURCE[row.source] ?? 'not scored';
}
