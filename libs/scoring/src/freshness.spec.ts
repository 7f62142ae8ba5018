import { sourceFreshness, sourceStanding } from './freshness';
import { scoreBuilding } from './score-building';
import { cell, freshSources, input } from './test-support';

const asOf = '2026-12-01';
const daily = (refreshed: string, newest: string | null, failingSince: string | null = null) => ({
  last_refreshed_at: refreshed,
  latest_record_date: newest,
  cadence: 'daily',
  failing_since: failingSince,
});

describe('the state of a source (the rule of /sources and of the stale-source flags)', () => {
  it('is ok while its last refresh is within the allowance of its cadence, late past it', () => {
    expect(sourceStanding(daily('2026-11-28T06:00:00Z', '2026-11-01'), asOf)).toEqual({ state: 'ok', late: false, records_behind: false });
    expect(sourceStanding(daily('2026-11-27T06:00:00Z', '2026-11-30'), asOf)).toEqual({ state: 'late', late: true, records_behind: false });
  });

  it('says when its newest record is behind the record allowance, which lowers its freshness but not its state', () => {
    const sparse = daily('2026-12-01T06:00:00Z', '2026-10-31');
    expect(sourceStanding(sparse, asOf)).toEqual({ state: 'ok', late: false, records_behind: true });
    expect(sourceFreshness(sparse, asOf)).toBeLessThan(1);
  });

  it('is failing while its refreshes fail, even with data still within its allowance', () => {
    expect(sourceStanding(daily('2026-11-30T06:00:00Z', '2026-11-30', '2026-12-01T06:00:00Z'), asOf)).toMatchObject({ state: 'failing', late: false });
    expect(sourceStanding({ ...daily('2026-11-30', null, '2026-11-30T06:00:00Z'), last_refreshed_at: null }, asOf)).toMatchObject({ state: 'failing', late: true });
  });

  it('is never_loaded without a successful refresh, whatever its cadence; a static source loaded once stays ok', () => {
    expect(sourceStanding(undefined, asOf).state).toBe('never_loaded');
    expect(sourceStanding({ last_refreshed_at: null, latest_record_date: null, cadence: 'static' }, asOf).state).toBe('never_loaded');
    expect(sourceStanding({ last_refreshed_at: '2020-01-01', latest_record_date: '2019-01-01', cadence: 'static' }, asOf).state).toBe('ok');
  });

  it('is late exactly where the age of its last refresh lowers its freshness', () => {
    for (const refreshed of ['2026-11-28', '2026-11-27', '2026-10-01']) {
      const info = daily(refreshed, null);
      expect(sourceStanding(info, asOf).late).toBe(sourceFreshness(info, asOf) < 1);
    }
  });

  it('names a failing source in the building\'s stale-source flags', () => {
    const sources = { ...freshSources(), hpd_violations: { ...freshSources().hpd_violations!, failing_since: '2026-11-20T06:00:00Z' } };
    const rows = [cell({ event_type: 'hpd_violation', category: 'water_damage', severity: 'high', age_bucket: '3-6m' })];
    expect(scoreBuilding(input({ histogram: rows, sources })).confidence.flags).toEqual(expect.arrayContaining(['stale-source', 'stale-source:hpd_violations']));
    expect(scoreBuilding(input({ histogram: rows })).confidence.flags).not.toContain('stale-source:hpd_violations');
  });
});
