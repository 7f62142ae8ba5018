import { readFileSync } from 'node:fs';
import path from 'node:path';
import { requestCost, ROUTE_COSTS, routeCostOf } from '@bhis/api-platform';

describe('rate-limit cost table', () => {
  const document = JSON.parse(readFileSync(path.join(__dirname, '..', 'openapi.json'), 'utf8')) as { paths: Record<string, Record<string, unknown>> };

  it('names only routes of the API (a renamed route would silently cost 1 unit)', () => {
    // the document's paths are relative to its server URL, /api/v1
    for (const route of ROUTE_COSTS) {
      const operations = Object.keys(document.paths[route.path.replace(/^\/api\/v1/, '')] ?? {});
      expect([route.path, operations]).toEqual([route.path, expect.arrayContaining([route.method.toLowerCase()])]);
    }
  });

  it('matches the exact method and path only', () => {
    expect(routeCostOf('POST', '/api/v1/portfolio/analyze')?.minimum).toBe(5);
    for (const variant of ['/api/v1/portfolio/analyze/', '/API/v1/portfolio/analyze', '/api/v1/portfolio/Analyze']) expect(routeCostOf('POST', variant)).toBeUndefined();
    expect(routeCostOf('GET', '/api/v1/portfolio/analyze')).toBeUndefined();
    const id = '00000000-0000-4000-8000-000000000000';
    expect(routeCostOf('PATCH', `/api/v1/portfolio/monitor/${id}`)?.maxBodyBytes).toBe(256_384);
    for (const variant of [`/api/v1/portfolio/monitor/${id}/`, `/api/v1/portfolio/monitor/${id}/test`, '/api/v1/portfolio/monitor']) expect(routeCostOf('PATCH', variant)).toBeUndefined();
  });

  it('charges batch 1 per 50 BBLs, portfolio and export 1 per 100 (at least 5), monitors 1 per 100 (at least 1)', () => {
    const bbls = (n: number) => ({ bbls: Array.from({ length: n }, () => '1000010001') });
    const cost = (p: string, n: number) => requestCost(routeCostOf('POST', p), bbls(n));
    expect([cost('/api/v1/buildings/batch', 1), cost('/api/v1/buildings/batch', 51), cost('/api/v1/buildings/batch', 500)]).toEqual([1, 2, 10]);
    expect([cost('/api/v1/portfolio/analyze', 10), cost('/api/v1/portfolio/analyze', 501), cost('/api/v1/export/csv', 10_000)]).toEqual([5, 6, 100]);
    expect([cost('/api/v1/portfolio/monitor', 1), cost('/api/v1/portfolio/monitor', 101), cost('/api/v1/portfolio/monitor', 10_000)]).toEqual([1, 2, 100]);
    expect(requestCost(undefined, bbls(10_000))).toBe(1);
  });

  it('charges a body at least 1 unit per 64 KiB inflated, and sizes each limit to the largest valid body', () => {
    const monitor = routeCostOf('POST', '/api/v1/portfolio/monitor');
    expect([requestCost(monitor, {}, 64 * 1024), requestCost(monitor, {}, 64 * 1024 + 1), requestCost(monitor, {}, 256_384)]).toEqual([1, 2, 4]);
    // the byte charge never raises a valid analysis above its BBL charge
    expect(requestCost(routeCostOf('POST', '/api/v1/portfolio/analyze'), {}, 256_384)).toBe(5);
    // 10,000 BBLs pretty-printed (four spaces a level, so eight before each BBL) and the longest other fields fit
    const longest = JSON.stringify({ name: 'n'.repeat(100), webhook_url: `https://${'h'.repeat(2040)}`, grades: ['A', 'B', 'C', 'D', 'F'], bbls: Array.from({ length: 10_000 }, () => '1000010001') }, null, 4);
    expect(Buffer.byteLength(longest)).toBeLessThanOrEqual(monitor?.maxBodyBytes ?? 0);
    expect(routeCostOf('POST', '/api/v1/buildings/batch')?.maxBodyBytes).toBe(28_384);
  });
});
