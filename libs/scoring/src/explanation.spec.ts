import { COMPONENT_KEYS } from '@bhis/domain';
import { newestEventIds } from './explanation';
import { scoreBuilding } from './score-building';
import { cell, input } from './test-support';

describe('explanation', () => {
  const rows = [
    cell({ event_type: 'hpd_violation', category: 'water_damage', severity: 'critical', open: true, age_bucket: '3-6m', count: 12, newest_event_ids: ['901', '900', '899'], newest_occurred_on: '2025-03-01' }),
    cell({ event_type: 'hpd_violation', category: 'mold', severity: 'high', open: true, age_bucket: '0-3m', count: 2, newest_event_ids: ['950', '949'], newest_occurred_on: '2025-06-01' }),
    cell({ event_type: 'hpd_complaint', category: 'water_damage', severity: 'high', age_bucket: '0-3m', count: 9 }),
    cell({ event_type: 'dob_job_filing', category: 'permit', severity: 'info', age_bucket: '6-12m', count: 4 }),
  ];
  const score = scoreBuilding(input({ histogram: rows }));

  it('lists the top signals of every component, strongest first, with the newest event ids', () => {
    const top = score.explanation.components.living_conditions[0];
    expect(top.signal).toBe('lc_hpd_violations_open');
    expect(top.count).toBe(14);
    expect(top.event_ids).toEqual(['950', '949', '901']);
    for (const key of COMPONENT_KEYS) {
      const list = score.explanation.components[key].filter((e) => e.contribution > 0);
      for (let i = 1; i < list.length; i++) expect(list[i].contribution).toBeLessThanOrEqual(list[i - 1].contribution);
    }
  });

  it('contributions add up to no more than the component score', () => {
    for (const key of COMPONENT_KEYS) {
      const sum = score.explanation.components[key].reduce((total, e) => total + e.contribution, 0);
      expect(sum).toBeLessThanOrEqual(score.components[key].score + 0.3);
    }
  });

  it('shows the reinvestment credit as a negative contribution', () => {
    const credit = score.explanation.components.deferred_maintenance.find((e) => e.signal === 'dm_reinvestment_credit');
    expect(credit?.contribution).toBeLessThan(0);
  });

  it('records the anchor adjustments', () => {
    const enrolled = scoreBuilding(input({ histogram: [cell({ event_type: 'aep_enrollment', category: 'enforcement_program', open: true })] }));
    expect(enrolled.explanation.adjustments).toEqual([expect.objectContaining({ rule: 'aep-active-floor', to: enrolled.total_score })]);
  });

  it('takes the newest ids of cells with the same newest date newest id first, whatever order the cells come in', () => {
    const a = cell({ event_type: 'hpd_violation', newest_occurred_on: '2026-05-01', newest_event_ids: ['90', '12'] });
    const b = cell({ event_type: 'hpd_violation', newest_occurred_on: '2026-05-01', newest_event_ids: ['105', '7'] });
    const older = cell({ event_type: 'hpd_violation', newest_occurred_on: '2026-04-01', newest_event_ids: ['999'] });
    expect(newestEventIds([a, b, older])).toEqual(['105', '7', '90']);
    expect(newestEventIds([older, b, a])).toEqual(['105', '7', '90']);
  });
});
