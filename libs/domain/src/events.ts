/**
 * The normalized event vocabulary shared by ingest (which writes events), scoring (which reads them)
 * and the API (which filters on them). The full mapping of source values to these is documented in
 * docs/event-classification.md.
 */

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const CATEGORIES = [
  'water_damage', // leaks (HPD 583-series orders, 311 WATER LEAK...)
  'mold',
  'heat_hot_water',
  'pests', // vermin, rodents, bedbugs
  'lead_paint',
  'fire_safety', // smoke/CO detectors, egress, sprinklers
  'structural', // floors, stairs, walls, ceilings, collapse risk
  'electrical',
  'plumbing',
  'gas',
  'elevator',
  'boiler',
  'facade',
  'sanitation', // garbage, unsanitary conditions
  'security', // doors, locks, intercoms, lighting
  'habitability', // other housing-maintenance conditions (paint/plaster, windows, appliances)
  'illegal_occupancy', // illegal conversions, occupancy contrary to C of O
  'construction', // work without permit, site safety
  'permit', // job filings: reinvestment
  'registration', // HPD registration filings
  'litigation',
  'enforcement_program', // AEP / UCP
  'emergency_repair', // HPD emergency repair charges (OMO/HWO)
  'vacate', // vacate orders
  'fire', // fire damage, FDNY vacates: catastrophes, flagged not scored
  'financial', // tax liens, ECB balances due
  'eviction',
  'administrative', // paperwork violations (HPD class I, failure to file)
  'other',
] as const;
export type EventCategory = (typeof CATEGORIES)[number];

/** Event types, one per kind of record (status changes between refreshes have their own types). */
export const EVENT_TYPES = [
  'hpd_violation',
  'hpd_violation_closed',
  'hpd_violation_reopened',
  'hpd_complaint',
  'hpd_complaint_closed',
  'hpd_litigation',
  'hpd_vacate_order',
  'hpd_vacate_rescinded',
  'aep_enrollment',
  'aep_discharged',
  'ucp_order',
  'emergency_repair_omo',
  'emergency_repair_hwo',
  'bedbug_filing',
  'registration_filed',
  'dob_violation',
  'dob_violation_resolved',
  'ecb_violation',
  'ecb_violation_resolved',
  'dob_safety_violation',
  'dob_complaint',
  'dob_job_filing',
  'dob_now_job_filing',
  'facade_filing',
  'dob_vacate_order',
  'complaint_311',
  'fdny_vacate',
  'tax_lien_sale_listing',
  'rodent_inspection',
  'eviction',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const EVENT_STATUSES = ['open', 'closed', 'active', 'resolved', 'dismissed', 'rescinded', 'discharged', 'filed', 'info'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/** A normalized event as ingest produces it and the events table stores it. */
export interface NormalizedEvent {
  bbl: string;
  source: string;
  source_record_id: string;
  event_type: EventType;
  category: EventCategory;
  severity: Severity;
  status: EventStatus | null;
  occurred_on: string | null; // YYYY-MM-DD
  closed_on: string | null; // YYYY-MM-DD
  description: string | null;
  attributes: Record<string, unknown>;
  /** Kept as evidence but left out of the chronic score (e.g. FEMA disaster repairs). */
  scoring_excluded: boolean;
}
