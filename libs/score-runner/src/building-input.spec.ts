import { histogramByBbl } from './building-input';
import type { HistogramSqlRow } from './feature-queries';
import { settledCell, type SettledGroupSqlRow } from './settled-histories';

const BBL = '3000100010';

function group(cell: string, closesOn: string | null = null): SettledGroupSqlRow {
  return { bbl: BBL, cell, closes_on: closesOn, count: 2, amount: 10.5, newest_event_ids: '7,3', newest_event_dates: '2019-05-01,2018-02-03', newest_occurred_on: '2019-05-01' };
}

describe('settledCell', () => {
  it('writes the cell as the histogram SQL would see the group on the as-of date', () => {
    const prefix = 'hpd_violations|hpd_violation|habitability|high';
    expect(settledCell(group(`${prefix}|t|f|f`), '2026-11-01').cell).toBe(`${prefix}|t|f|5y+`);
    expect(settledCell(group(`${prefix}|f|t|f`, '2026-12-20'), '2026-11-01').cell).toBe(`${prefix}|t|t|5y+`);
    expect(settledCell(group(`${prefix}|f|f|f`, '2026-12-20'), '2027-01-05').cell).toBe(`${prefix}|f|f|5y+`);
    expect(settledCell(group(`${prefix}|n|f|t`), '2026-11-01').cell).toBe(`${prefix}|n|f|undated`);
  });
});

describe('histogramByBbl', () => {
  const row = (cell: string, count: number): HistogramSqlRow => ({ bbl: BBL, cell, count, amount: null, newest_event_ids: '9', newest_occurred_on: '2026-10-01' });

  it('reads each cell text into its values', () => {
    const cells = histogramByBbl([row('nyc311|complaint_311|heat_hot_water|medium|n|t|0-3m', 3)]).get(BBL);
    expect(cells).toEqual([
      {
        source: 'nyc311',
        event_type: 'complaint_311',
        category: 'heat_hot_water',
        severity: 'medium',
        open: null,
        scoring_excluded: true,
        age_bucket: '0-3m',
        count: 3,
        amount: 0,
        newest_event_ids: ['9'],
        newest_occurred_on: '2026-10-01',
      },
    ]);
  });

  it('adds a settled group to the oldest cell of the same values', () => {
    const prefix = 'hpd_violations|hpd_violation|habitability|high';
    const cells = histogramByBbl([row(`${prefix}|t|f|5y+`, 1)], [group(`${prefix}|t|f|f`)], '2026-11-01').get(BBL);
    expect(cells).toHaveLength(1);
    expect(cells?.[0]).toMatchObject({ count: 3, amount: 10.5, newest_event_ids: ['9', '7', '3'] });
  });

  it('refuses a cell text of another form', () => {
    expect(() => histogramByBbl([row('nyc311|complaint_311|heat_hot_water|medium|x|t|0-3m', 1)])).toThrow('a histogram cell of an unexpected form');
  });
});
