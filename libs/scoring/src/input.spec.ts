import { ageBucketOf, ageBucketSql, AGE_BUCKETS, decayWeight } from './age-buckets';
import { addMonths } from './dates';
import { heatSeasonWindow } from './heat-season';
import { buildingInputSchema, parseBuildingInput } from './input';
import { peerGroupOf, PEER_GROUPS } from './peer-groups';
import { cell, input } from './test-support';

describe('age buckets', () => {
  it('puts each date in the bucket of its calendar-month age', () => {
    const asOf = '2025-06-30';
    expect(ageBucketOf('2025-07-15', asOf)).toBe('0-3m');
    expect(ageBucketOf('2025-03-31', asOf)).toBe('0-3m');
    expect(ageBucketOf('2025-03-30', asOf)).toBe('3-6m');
    expect(ageBucketOf('2024-06-30', asOf)).toBe('1-2y');
    expect(ageBucketOf('2024-07-01', asOf)).toBe('6-12m');
    expect(ageBucketOf('2020-07-01', asOf)).toBe('3-5y');
    expect(ageBucketOf('2020-06-30', asOf)).toBe('5y+');
    expect(ageBucketOf(null, asOf)).toBe('undated');
  });

  it('clamps month ends as PostgreSQL does', () => {
    expect(addMonths('2024-05-31', -3)).toBe('2024-02-29');
    expect(addMonths('2025-01-31', -13)).toBe('2023-12-31');
  });

  it('generates the SQL with the same bounds', () => {
    const sql = ageBucketSql('e.occurred_on', '$1::date');
    expect(sql).toContain(`WHEN e.occurred_on > ($1::date - interval '3 months')::date THEN '0-3m'`);
    expect(sql).toContain(`WHEN e.occurred_on > ($1::date - interval '60 months')::date THEN '3-5y'`);
    expect(sql.startsWith(`CASE WHEN e.occurred_on IS NULL THEN 'undated'`)).toBe(true);
    expect(sql.endsWith(`ELSE '5y+' END`)).toBe(true);
  });

  it('decays monotonically with age', () => {
    const weights = AGE_BUCKETS.slice(0, 7).map((bucket) => decayWeight(bucket.key, 2));
    for (let i = 1; i < weights.length; i++) expect(weights[i]).toBeLessThan(weights[i - 1]);
  });
});

describe('heat season', () => {
  it('is the current season inside one, the last one outside', () => {
    expect(heatSeasonWindow('2025-01-15')).toEqual({ start: '2024-10-01', end: '2025-01-15' });
    expect(heatSeasonWindow('2025-11-02')).toEqual({ start: '2025-10-01', end: '2025-11-02' });
    expect(heatSeasonWindow('2025-07-04')).toEqual({ start: '2024-10-01', end: '2025-05-31' });
  });
});

describe('input schema', () => {
  it('accepts what the builders produce', () => {
    const value = input({ histogram: [cell({ event_type: 'hpd_violation' })] });
    expect(parseBuildingInput(JSON.parse(JSON.stringify(value)))).toEqual(value);
  });

  it('rejects unknown buckets, sources and malformed BBLs', () => {
    const value = input({ histogram: [cell({ event_type: 'hpd_violation' })] });
    expect(buildingInputSchema.safeParse({ ...value, histogram: [{ ...value.histogram[0], age_bucket: '10y' }] }).success).toBe(false);
    expect(buildingInputSchema.safeParse({ ...value, histogram: [{ ...value.histogram[0], source: 'hpd' }] }).success).toBe(false);
    expect(buildingInputSchema.safeParse({ ...value, building: { ...value.building, bbl: '0000000000' } }).success).toBe(false);
  });
});

describe('peer groups', () => {
  it('names size band, era and type', () => {
    expect(peerGroupOf(30, 1925, 'C1')).toBe('large_pre-war_walkup');
    expect(peerGroupOf(1, 1960, 'A5')).toBe('small-home_post-war_house');
    expect(peerGroupOf(150, 2005, 'D4')).toBe('very-large_modern_co-op');
    expect(peerGroupOf(8, 0, null)).toBe('mid-size_unknown-era_other');
    expect(PEER_GROUPS).toContain(peerGroupOf(4, 1931, 'S3'));
  });
});
