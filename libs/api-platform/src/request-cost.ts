/**
 * Rate-limit units a request costs (api-decisions "Rate limits"): 1 by default, batch 1 per 50 BBLs,
 * portfolio analysis and CSV export 1 per 100 BBLs with a minimum of 5.
 */
export function requestCost(method: string, path: string, body: unknown): number {
  if (method !== 'POST') return 1;
  const bbls = Array.isArray((body as { bbls?: unknown } | undefined)?.bbls)
    ? (body as { bbls: unknown[] }).bbls.length
    : 0;
  if (path === '/api/v1/buildings/batch') return Math.max(1, Math.ceil(bbls / 50));
  if (path === '/api/v1/portfolio/analyze' || path === '/api/v1/export/csv') {
    return Math.max(5, Math.ceil(bbls / 100));
  }
  return 1;
}

/** Paths whose bodies may be up to 10 MiB (everything else: 1 MiB). */
export function isLargeBodyPath(path: string): boolean {
  return path.startsWith('/api/v1/portfolio/') || path === '/api/v1/export/csv';
}
