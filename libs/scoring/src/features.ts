import { CATEGORIES, EventType, Severity } from '@bhis/domain';
import { ageBucketIndex, bucketsWithin } from './age-buckets';
import { dayNumber } from './dates';
import { BuildingInput, HistogramRow } from './input';
import { SOURCE_KEYS } from '@bhis/sources';
import { FAMILY_INDEX, FAMILY_OF_SOURCE } from './source-families';
import { isPublicHousingBuilding } from './public-housing';
import { rateUnitsOf, unitsOf } from './unit-rates';

export type RegistrationStatus = 'valid' | 'expired' | 'missing' | 'not_required';

/** Facts derived in one pass over the histogram, shared by flags, anchors, derived signals and confidence. */
export interface BuildingFeatures {
  units: number;
  rate_units: number;
  registration_required: boolean;
  registration_status: RegistrationStatus;
  /** Open HPD class B/C violations, any age. */
  open_bc_violations: number;
  /** Open HPD class B/C violations issued in the last 5 years (AEP criteria). */
  open_bc_violations_5y: number;
  open_c_violations: number;
  /** HPD class B/C violations dated 3 months to 5 years ago, and how many are still open. */
  bc_violations_3m_5y: number;
  open_bc_violations_3m_5y: number;
  /** HPD class B/C leak and mold violations in the last 12 months, any status (UCP criteria). */
  water_bc_violations_12m: number;
  /** Emergency repair charges (dollars) in the last 5 years, disaster repairs excluded (AEP criteria). */
  emergency_repair_charges_5y: number;
  emergency_repairs_12m: number;
  disaster_repairs_5y: number;
  /** Tenant reports (HPD, 311, DOB complaints) in the last 12 months. */
  complaints_12m: number;
  active_hpd_vacates: number;
  active_dob_vacates: number;
  active_fdny_vacates: number;
  active_aep: number;
  active_ucp: number;
  open_litigation: number;
  tax_lien_listings_12m: number;
  fire_events_12m: number;
  unsafe_facades_open: number;
  open_lead_paint_violations: number;
  /** Open HPD class C (immediately hazardous) lead-paint violations. */
  open_c_lead_paint_violations: number;
  /** Open DOB, ECB or DOB safety violations of severity critical (immediately hazardous, ECB class 1). */
  open_hazardous_dob_violations: number;
  total_events: number;
  distinct_sources: number;
  /** Bit i set when family SOURCE_FAMILIES[i] has any record for the building. */
  family_mask: number;
  /** Bit i set when family SOURCE_FAMILIES[i] points towards distress (see confidence.ts). */
  distress_family_mask: number;
  /** Bit per CATEGORIES index: categories of complaints, and of violations/orders, in the last 2 years. */
  complaint_category_mask_2y: number;
  violation_category_mask_2y: number;
  has_complaints: boolean;
  has_enforcement_records: boolean;
  /** Scored records other than tenant reports (violations, orders, repairs, filings...), any age: what confirms a score. */
  confirmed_records: number;
}

const CATEGORY_BIT: Readonly<Record<string, number>> = Object.fromEntries(CATEGORIES.map((category, i) => [category, 1 << i]));

export const COMPLAINT_TYPES: ReadonlySet<EventType> = new Set<EventType>(['hpd_complaint', 'complaint_311', 'dob_complaint']);
const VIOLATION_TYPES: ReadonlySet<EventType> = new Set<EventType>([
  'hpd_violation',
  'dob_violation',
  'ecb_violation',
  'dob_safety_violation',
  'ucp_order',
  'hpd_vacate_order',
  'dob_vacate_order',
]);
const ENFORCEMENT_TYPES: ReadonlySet<EventType> = new Set<EventType>([
  ...VIOLATION_TYPES,
  'hpd_litigation',
  'aep_enrollment',
  'emergency_repair_omo',
  'emergency_repair_hwo',
]);
const EMERGENCY_REPAIR_TYPES: ReadonlySet<EventType> = new Set<EventType>(['emergency_repair_omo', 'emergency_repair_hwo']);
const ADVERSE_SEVERITIES: ReadonlySet<Severity> = new Set<Severity>(['critical', 'high', 'medium']);

/** Each source's place in SOURCE_KEYS, for counting the distinct sources of a building (no limit on how many there are). */
const SOURCE_INDEX: ReadonlyMap<string, number> = new Map(SOURCE_KEYS.map((key, i) => [key, i]));

const WITHIN_12M = bucketsWithin(12);
const WITHIN_2Y = bucketsWithin(24);
const WITHIN_5Y = bucketsWithin(60);
const OLDER_THAN_3M = bucketsWithin(3);

/**
 * Buildings that must register with HPD: privately owned multiple dwellings (3+ units) under HPD
 * jurisdiction. Public housing does not register.
 */
export function registrationRequired(input: BuildingInput): boolean {
  return input.building.in_hpd_jurisdiction && unitsOf(input.building) >= 3 && !isPublicHousingBuilding(input.building);
}

function registrationStatusOf(input: BuildingInput, required: boolean): RegistrationStatus {
  if (!required) return 'not_required';
  const end = input.building.registration_end_date;
  if (end === null) return 'missing';
  return dayNumber(end) < dayNumber(input.as_of) ? 'expired' : 'valid';
}

/** The building's facts with every histogram count at zero. */
function initialFeatures(input: BuildingInput): BuildingFeatures {
  const units = unitsOf(input.building);
  const required = registrationRequired(input);
  return {
    units,
    rate_units: rateUnitsOf(units),
    registration_required: required,
    registration_status: registrationStatusOf(input, required),
    open_bc_violations: 0,
    open_bc_violations_5y: 0,
    open_c_violations: 0,
    bc_violations_3m_5y: 0,
    open_bc_violations_3m_5y: 0,
    water_bc_violations_12m: 0,
    emergency_repair_charges_5y: 0,
    emergency_repairs_12m: 0,
    disaster_repairs_5y: 0,
    complaints_12m: 0,
    active_hpd_vacates: 0,
    active_dob_vacates: 0,
    active_fdny_vacates: 0,
    active_aep: 0,
    active_ucp: 0,
    open_litigation: 0,
    tax_lien_listings_12m: 0,
    fire_events_12m: 0,
    unsafe_facades_open: 0,
    open_lead_paint_violations: 0,
    open_c_lead_paint_violations: 0,
    open_hazardous_dob_violations: 0,
    total_events: 0,
    distinct_sources: 0,
    family_mask: input.building.registration_end_date === null ? 0 : 1 << FAMILY_INDEX.registrations,
    distress_family_mask: 0,
    complaint_category_mask_2y: 0,
    violation_category_mask_2y: 0,
    has_complaints: false,
    has_enforcement_records: false,
    confirmed_records: 0,
  };
}

/** What every row counts for, scored or not: records, families, fires and vacate orders. */
function countAnyRow(f: BuildingFeatures, row: HistogramRow, bucket: number, familyBit: number): void {
  const n = row.count;
  f.total_events += n;
  f.family_mask |= familyBit;
  if (row.category === 'fire' && bucket < WITHIN_12M) f.fire_events_12m += n;
  // Vacate orders raise flags whatever their reason, fire included.
  if (!row.open) return;
  if (row.event_type === 'hpd_vacate_order') f.active_hpd_vacates += n;
  else if (row.event_type === 'dob_vacate_order') f.active_dob_vacates += n;
  else if (row.event_type === 'fdny_vacate') f.active_fdny_vacates += n;
}

/** What a scored row counts for whatever its type: distress families, confirmation, complaints and categories. */
function countScoredRow(f: BuildingFeatures, row: HistogramRow, bucket: number, familyBit: number): void {
  const n = row.count;
  const type = row.event_type;
  if (ADVERSE_SEVERITIES.has(row.severity)) {
    const openSerious = row.open && (row.severity === 'critical' || row.severity === 'high');
    if (bucket < WITHIN_2Y || openSerious) f.distress_family_mask |= familyBit;
  }
  if (!COMPLAINT_TYPES.has(type)) f.confirmed_records += n;
  if (COMPLAINT_TYPES.has(type)) {
    f.has_complaints = true;
    if (bucket < WITHIN_12M) f.complaints_12m += n;
    if (bucket < WITHIN_2Y) f.complaint_category_mask_2y |= CATEGORY_BIT[row.category] ?? 0;
  }
  if (ENFORCEMENT_TYPES.has(type)) f.has_enforcement_records = true;
  if (VIOLATION_TYPES.has(type) && bucket < WITHIN_2Y && row.severity !== 'info') {
    f.violation_category_mask_2y |= CATEGORY_BIT[row.category] ?? 0;
  }
}

/** HPD class B/C violations: open, by age window, lead paint, and leaks and mold (AEP and UCP criteria). */
function countHpdViolation(f: BuildingFeatures, row: HistogramRow, bucket: number): void {
  const n = row.count;
  const classBC = row.severity === 'critical' || row.severity === 'high';
  if (!classBC) return;
  if (row.open) {
    f.open_bc_violations += n;
    if (bucket < WITHIN_5Y) f.open_bc_violations_5y += n;
    if (row.severity === 'critical') f.open_c_violations += n;
    if (row.category === 'lead_paint') f.open_lead_paint_violations += n;
    if (row.category === 'lead_paint' && row.severity === 'critical') f.open_c_lead_paint_violations += n;
  }
  if (bucket >= OLDER_THAN_3M && bucket < WITHIN_5Y) {
    f.bc_violations_3m_5y += n;
    if (row.open) f.open_bc_violations_3m_5y += n;
  }
  if (bucket < WITHIN_12M && (row.category === 'water_damage' || row.category === 'mold')) {
    f.water_bc_violations_12m += n;
  }
}

/** The counts that belong to one event type. */
function countByEventType(f: BuildingFeatures, row: HistogramRow, bucket: number): void {
  const n = row.count;
  switch (row.event_type) {
    case 'hpd_violation':
      countHpdViolation(f, row, bucket);
      break;
    case 'dob_violation':
    case 'ecb_violation':
    case 'dob_safety_violation':
      if (row.open && row.severity === 'critical') f.open_hazardous_dob_violations += n;
      break;
    case 'emergency_repair_omo':
    case 'emergency_repair_hwo':
      if (bucket < WITHIN_5Y) f.emergency_repair_charges_5y += row.amount;
      if (bucket < WITHIN_12M) f.emergency_repairs_12m += n;
      break;
    case 'aep_enrollment':
      if (row.open) f.active_aep += n;
      break;
    case 'ucp_order':
      if (row.open) f.active_ucp += n;
      break;
    case 'hpd_litigation':
      if (row.open) f.open_litigation += n;
      break;
    case 'tax_lien_sale_listing':
      if (bucket < WITHIN_12M) f.tax_lien_listings_12m += n;
      break;
    case 'facade_filing':
      if (row.open && row.severity === 'critical') f.unsafe_facades_open += n;
      break;
    default:
      break;
  }
}

function countRow(f: BuildingFeatures, row: HistogramRow, familyBit: number): void {
  const bucket = ageBucketIndex(row.age_bucket);
  countAnyRow(f, row, bucket, familyBit);
  if (row.scoring_excluded) {
    if (EMERGENCY_REPAIR_TYPES.has(row.event_type) && bucket < WITHIN_5Y) f.disaster_repairs_5y += row.count;
    return;
  }
  // Catastrophes raise flags (above) and count as records, never as chronic distress.
  if (row.category === 'fire') return;
  countScoredRow(f, row, bucket, familyBit);
  countByEventType(f, row, bucket);
}

export function deriveFeatures(input: BuildingInput): BuildingFeatures {
  const f = initialFeatures(input);
  const sourcesSeen = new Uint8Array(SOURCE_KEYS.length);
  for (const row of input.histogram) {
    const family = FAMILY_OF_SOURCE[row.source];
    if (family === undefined) continue; // a source the score does not read (SCORING_USE)
    sourcesSeen[SOURCE_INDEX.get(row.source) ?? 0] = 1;
    countRow(f, row, 1 << FAMILY_INDEX[family]);
  }
  f.distinct_sources = sourcesSeen.reduce((count, seen) => count + seen, 0);
  return f;
}

export function popcount(value: number): number {
  let v = value - ((value >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
