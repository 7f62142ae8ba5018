import { isLargeBodyPath, requestCost } from './request-cost';

describe('requestCost', () => {
  const bbls = (n: number) => ({ bbls: Array.from({ length: n }, () => '1000010001') });

  it('charges 1 unit by default', () => {
    expect(requestCost('GET', '/api/v1/buildings/1000010001', undefined)).toBe(1);
    expect(requestCost('POST', '/api/v1/portfolio/monitor', bbls(5000))).toBe(1);
  });

  it('charges a batch 1 unit per 50 BBLs, at least 1', () => {
    expect(requestCost('POST', '/api/v1/buildings/batch', bbls(1))).toBe(1);
    expect(requestCost('POST', '/api/v1/buildings/batch', bbls(50))).toBe(1);
    expect(requestCost('POST', '/api/v1/buildings/batch', bbls(51))).toBe(2);
    expect(requestCost('POST', '/api/v1/buildings/batch', bbls(500))).toBe(10);
    expect(requestCost('POST', '/api/v1/buildings/batch', {})).toBe(1);
  });

  it('charges portfolio analysis and export 1 unit per 100 BBLs, at least 5', () => {
    expect(requestCost('POST', '/api/v1/portfolio/analyze', bbls(10))).toBe(5);
    expect(requestCost('POST', '/api/v1/export/csv', bbls(10_000))).toBe(100);
    expect(requestCost('POST', '/api/v1/portfolio/analyze', bbls(501))).toBe(6);
  });

  it('allows 10 MiB bodies only for portfolio and export', () => {
    expect(isLargeBodyPath('/api/v1/portfolio/analyze')).toBe(true);
    expect(isLargeBodyPath('/api/v1/export/csv')).toBe(true);
    expect(isLargeBodyPath('/api/v1/buildings/batch')).toBe(false);
  });
});

