import { apiPath } from '@bhis/envelope';
/**
 * The routes whose rate-limit cost or body limit differ from the default (docs/api-decisions.md, "Rate limits"):
 * batch 1 unit per 50 BBLs (at least 1), portfolio analysis and CSV export 1 per 100 BBLs (at least 5),
 * creating, changing or deleting a monitor 1 per 100 of its (new) BBLs (at least 1; the delete in monitors.controller.ts).
 * Every other request costs 1 unit; any body also costs 1 unit per BODY_BYTES_PER_UNIT inflated
 * (charged while it streams in, json-body.guard.ts), so the largest body of a 1-unit route costs 4.
 *
 * The router is case-sensitive and strict about trailing slashes (create-api-app.ts), so a request
 * reaches one of these handlers only with exactly this method and path; any variant is a 404 that
 * costs 1 unit. apps/api/src/route-costs.spec.ts checks that every entry names a route of the API.
 */
export interface RouteCost {
  method: 'POST' | 'PATCH';
  /** The path as the OpenAPI document names it: a `{name}` segment stands for any one segment. */
  path: string;
  /** Units charged before the body is read (the least the request can cost). */
  minimum: number;
  /** BBLs per unit once the body is read. */
  bblsPerUnit: number;
  /** The largest body accepted, after decompression. */
  maxBodyBytes: number;
}

/**
 * The bytes one BBL takes in the longest usual spelling of a valid body: `"1000010001",` (13) on a
 * line of its own (CR LF) indented by up to nine spaces (`JSON.stringify(body, null, 4)` puts eight
 * before each BBL of `{"bbls": [...]}`).
 */
const BYTES_PER_BBL = 24;
/**
 * Every field of a body besides its BBL list, with room for whitespace: the longest are a monitor's
 * webhook URL (2,048, webhook-url.ts) and name (100), an export's filters (200 each, export.dto.ts)
 * and an admin ingest URL (2,000, admin.dto.ts).
 */
const OTHER_FIELDS_BYTES = 16 * 1024;

/** The largest valid body of a route that takes up to `bbls` BBLs. */
export function bodyLimitForBbls(bbls: number): number {
  return bbls * BYTES_PER_BBL + OTHER_FIELDS_BYTES;
}

/**
 * Any other route with a body takes at most 500 BBLs (an admin scoring run, admin.dto.ts) or none:
 * 500 x 24 + 16 KiB = 28,384 bytes.
 */
export const DEFAULT_MAX_BODY_BYTES = bodyLimitForBbls(500);
/** 10,000 BBLs (bbl-list.ts, PORTFOLIO_BBL_LIMIT): 10,000 x 24 + 16 KiB = 256,384 bytes. */
const PORTFOLIO_MAX_BODY_BYTES = bodyLimitForBbls(10_000);

/**
 * Inflated body bytes one unit pays for (a convention: the largest 10,000-BBL body, 256,384 bytes,
 * costs 4 units even where its route charges less). The bench reports what a unit of each route
 * buys against a cached lookup (docs/benchmarks.md, "What one unit buys").
 */
export const BODY_BYTES_PER_UNIT = 64 * 1024;

export const ROUTE_COSTS: readonly RouteCost[] = [
  { method: 'POST', path: apiPath('/buildings/batch'), minimum: 1, bblsPerUnit: 50, maxBodyBytes: DEFAULT_MAX_BODY_BYTES },
  { method: 'POST', path: apiPath('/portfolio/analyze'), minimum: 5, bblsPerUnit: 100, maxBodyBytes: PORTFOLIO_MAX_BODY_BYTES },
  { method: 'POST', path: apiPath('/export/csv'), minimum: 5, bblsPerUnit: 100, maxBodyBytes: PORTFOLIO_MAX_BODY_BYTES },
  // creating a monitor writes a row per BBL: at 1 unit for its body's bytes alone a unit bought 50
  // cached lookups' CPU (docs/benchmarks.md, "What one unit buys"); priced as an analysis of its BBLs
  { method: 'POST', path: apiPath('/portfolio/monitor'), minimum: 1, bblsPerUnit: 100, maxBodyBytes: PORTFOLIO_MAX_BODY_BYTES },
  // a change may replace the monitor's BBLs: priced and sized as creating it
  { method: 'PATCH', path: apiPath('/portfolio/monitor/{id}'), minimum: 1, bblsPerUnit: 100, maxBodyBytes: PORTFOLIO_MAX_BODY_BYTES },
];

const POST_ROUTES = new Map(ROUTE_COSTS.filter((route) => route.method === 'POST').map((route) => [route.path, route]));
const PATCH_ROUTES = ROUTE_COSTS.filter((route) => route.method === 'PATCH').map((route) => ({
  route,
  pattern: new RegExp(`^${route.path.replace(/\{[^/}]+\}/g, '[^/]+')}$`),
}));

/** The table entry of a request, by exact method and path (the same rule as the router's). */
export function routeCostOf(method: string, path: string): RouteCost | undefined {
  // other methods (most requests) need no lookup
  if (method === 'POST') return POST_ROUTES.get(path);
  if (method === 'PATCH') return PATCH_ROUTES.find((entry) => entry.pattern.test(path))?.route;
  return undefined;
}

/** Units a request costs once its body is known: by its BBLs, and at least by its inflated bytes. */
export function requestCost(route: RouteCost | undefined, body: unknown, inflatedBytes = 0): number {
  const list = (body as { bbls?: unknown } | undefined)?.bbls;
  return Math.max(costOfBbls(route, Array.isArray(list) ? list.length : 0), costOfBodyBytes(inflatedBytes));
}

/** Units `bytes` of inflated body cost (1 per BODY_BYTES_PER_UNIT, started units count). */
export function costOfBodyBytes(bytes: number): number {
  return Math.ceil(bytes / BODY_BYTES_PER_UNIT);
}

/** Units for a request of the route over `count` BBLs (or rows). */
export function costOfBbls(route: RouteCost | undefined, count: number): number {
  if (!route) return 1;
  return Math.max(route.minimum, Math.ceil(count / route.bblsPerUnit));
}

export function maxBodyBytes(route: RouteCost | undefined): number {
  return route?.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
}
