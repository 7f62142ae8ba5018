import type { EventType } from '@bhis/domain';

/**
 * Sources updated in place keep no history: when a refresh finds a record whose status changed,
 * the change becomes its own event, dated the day it was first seen. This table says which
 * changes are recorded and as what.
 */
export const STATUS_CHANGE_EVENTS: Partial<Record<EventType, Partial<Record<string, EventType>>>> = {
  hpd_violation: { closed: 'hpd_violation_closed', open: 'hpd_violation_reopened' },
  hpd_complaint: { closed: 'hpd_complaint_closed' },
  dob_violation: { resolved: 'dob_violation_resolved', dismissed: 'dob_violation_resolved', closed: 'dob_violation_resolved' },
  ecb_violation: { resolved: 'ecb_violation_resolved', closed: 'ecb_violation_resolved' },
  hpd_vacate_order: { rescinded: 'hpd_vacate_rescinded', closed: 'hpd_vacate_rescinded' },
  aep_enrollment: { discharged: 'aep_discharged', closed: 'aep_discharged' },
};

/** As rows for SQL: (event_type, new_status, change_event_type). */
export function statusChangeRows(): [string, string, string][] {
  return Object.entries(STATUS_CHANGE_EVENTS).flatMap(([type, changes]) =>
    Object.entries(changes ?? {}).map(([status, changeType]) => [type, status, changeType as string] as [string, string, string]),
  );
}
