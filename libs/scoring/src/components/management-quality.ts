import { ComponentModel, ANY_SEVERITY, CLASS_BC_SEVERITY, VIOLATION_SEVERITY } from '../signals';

/** Index points for a building that must register with HPD and has no registration. */
export const NO_REGISTRATION_POINTS = 1.5;
/** Index points for a required registration that has expired. */
export const EXPIRED_REGISTRATION_POINTS = 1;
/**
 * Index points at a 100% share of uncorrected B/C violations, given in full from 0.5 such violations
 * per rate unit (a share over a handful of violations says little; per unit keeps it size-neutral).
 */
export const UNCORRECTED_SHARE_POINTS = 1.5;
export const UNCORRECTED_SHARE_FULL_EVIDENCE_PER_UNIT = 0.5;

export const MANAGEMENT_QUALITY: ComponentModel = {
  key: 'management_quality',
  code: 'MQ',
  title: 'Management quality',
  purpose:
    'Whether the owner corrects conditions and meets obligations: violations left open past their legal correction window, failed corrections, repairs the city had to make, missed safety filings, and HPD registration.',
  scale: 2,
  scale_mode: 'fixed',
  signals: [
    {
      key: 'mq_overdue_bc_violations',
      description: 'HPD class B/C violations still open more than 3 months after issue (past the 24-hour/30-day correction windows)',
      event_types: ['hpd_violation'],
      severity: CLASS_BC_SEVERITY,
      status: 'open',
      measure: 'count',
      weight: 0.5,
      half_life_years: 4,
      min_age_months: 3,
      normalization: 'per_unit',
      cap: 4,
    },
    {
      key: 'mq_reopened_violations',
      description: 'HPD violations reopened after a false or failed certification of correction',
      event_types: ['hpd_violation_reopened'],
      severity: VIOLATION_SEVERITY,
      status: 'any',
      measure: 'count',
      weight: 0.5,
      half_life_years: 2,
      normalization: 'per_unit',
      cap: 2,
    },
    {
      key: 'mq_emergency_repairs',
      description: 'Emergency repairs HPD made because the owner did not (OMO and handyman work orders)',
      event_types: ['emergency_repair_omo', 'emergency_repair_hwo'],
      severity: ANY_SEVERITY,
      status: 'any',
      measure: 'count',
      weight: 0.5,
      half_life_years: 2,
      normalization: 'per_unit',
      cap: 3,
    },
    {
      key: 'mq_safety_compliance',
      description: 'Open DOB safety violations (missed boiler, elevator and facade inspections and filings)',
      event_types: ['dob_safety_violation'],
      severity: VIOLATION_SEVERITY,
      status: 'open',
      measure: 'count',
      weight: 0.3,
      half_life_years: 2,
      normalization: 'per_unit',
      cap: 2,
    },
  ],
  derived: [
    {
      key: 'mq_registration',
      description: 'HPD registration missing or expired',
      rule: `Only for buildings that must register (in HPD jurisdiction with 3+ units): ${NO_REGISTRATION_POINTS} points when there is no registration, ${EXPIRED_REGISTRATION_POINTS} when registration_end_date is before as_of.`,
    },
    {
      key: 'mq_uncorrected_share',
      description: 'Share of recent HPD class B/C violations still uncorrected',
      rule: `Of the HPD class B/C violations dated 3 months to 5 years before as_of, the share still open, times ${UNCORRECTED_SHARE_POINTS} points, times min(1, n / (${UNCORRECTED_SHARE_FULL_EVIDENCE_PER_UNIT} x rate units)) where n is the number of those violations, so that a handful of violations cannot give a full share.`,
    },
  ],
};
