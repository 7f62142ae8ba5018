import { ComponentModel, REPORT_SEVERITY } from '../signals';

/**
 * The complaint rate (weighted, decayed, per rate unit, divided by the area propensity) at which the
 * complaint burden reaches 63.2, in multiples of the peer group's steady-state rate: a building
 * complaining exactly at the peer rate scores 100 * (1 - exp(-1 / 4.5)) = 20.
 */
export const COMPLAINT_RATIO_SCALE = 4.5;

export const COMPLAINT_BURDEN: ComponentModel = {
  key: 'complaint_burden',
  code: 'CB',
  title: 'Complaint burden',
  purpose:
    'How much tenants and neighbours report, relative to comparable buildings: HPD complaints, housing-related 311 requests and DOB complaints. Complaints are reports, not confirmed violations, so the component weighs less in the total and is measured against the peer rate and the area propensity to complain.',
  scale: COMPLAINT_RATIO_SCALE,
  scale_mode: 'peer_complaint_rate',
  signals: [
    {
      key: 'cb_housing_complaints',
      description: 'HPD complaints and housing-related 311 requests',
      event_types: ['hpd_complaint', 'complaint_311'],
      severity: REPORT_SEVERITY,
      status: 'any',
      measure: 'count',
      weight: 1,
      half_life_years: 1,
      normalization: 'complaints_per_unit',
      cap: Number.POSITIVE_INFINITY,
    },
    {
      key: 'cb_dob_complaints',
      description: 'DOB complaints (often from neighbours or about construction, so weighed at half)',
      event_types: ['dob_complaint'],
      severity: REPORT_SEVERITY,
      status: 'any',
      measure: 'count',
      weight: 0.5,
      half_life_years: 1,
      normalization: 'complaints_per_unit',
      cap: Number.POSITIVE_INFINITY,
    },
  ],
  derived: [],
};
