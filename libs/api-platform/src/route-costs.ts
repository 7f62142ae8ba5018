import { apiPath } from '@bhis/envelope';
/**
 * The routes whose rate-limit cost or body limit differ from the default (docs/api-decisions.md, "Rate limits"):
 * batch 1 unit per 50 BBLs (at least 1), portfolio analysis and CSV export 1 per 100 BBLs (at least 5),
 * monitor creation 1 per 100 BBLs (at least 1).
 * Every other request costs 1 unit and may carry at most 1 MiB.
 *
 * The router is case-sensitive and strict about trailing slashes (create-api-app.ts), so a request
 * reaches one of these handlers only with exactly this method and path; any variant is a 404 that
 * costs 1 unit. apps/api/src/route-costs.spec.ts checks that every entry names a route of the API.
 */
export interface RouteCost {
  method: 'POST';
  path: string;
  /** Units charged before the body is read (the least the request can cost). */
  minimum: number;
  /** BBLs per unit once the body is read. */
  bblsPerUnit: number;
  /** The largest body accepted, after decompression. */
  maxBodyBytes: number;
}

const MIB = 1024 * 1024;
export const DEFAULT_MAX_BODY_BYTES = 1 * MIB;

export const ROUTE_COSTS: readonly RouteCost[] = [
  { method: 'POST', path: apiPath('/buildings/batch'), minimum: 1, bblsPerUnit: 50, maxBodyBytes: 1 * MIB },
  { method: 'POST', path: apiPath('/portfolio/analyze'), minimum: 5, bblsPerUnit: 100, maxBodyBytes: 10 * MIB },
  { method: 'POST', path: apiPath('/export/csv'), minimum: 5, bblsPerUnit: 100, maxBodyBytes: 10 * MIB },
  // monitors carry up to 10,000 BBLs too: 1 unit per 100, as an analysis of them (deleting one costs the same, monitors.controller.ts)
  { method: 'POST', path: apiPath('/portfolio/monitor'), minimum: 1, bblsPerUnit: 100, maxBodyBytes: 10 * MIB },
];

const POST_ROUTES = new Map(ROUTE_COSTS.map((route) => [route.path, route]));

/** The table entry of a request, by exact method and path (the same rule as the router's). */
export function routeCostOf(method: string, path: string): RouteCost | undefined {
  // every entry is a POST route; other methods (most requests) need no lookup
  return method === 'POST' ? POST_ROUTES.get(path) : undefined;
}

/** Units a request costs once its body is known. */
export function requestCost(route: RouteCost | undefined, body: unknown): number {
  const list = (body as { bbls?: unknown } | undefined)?.bbls;
  return costOfBbls(route, Array.isArray(list) ? list.length : 0);
}

/** Units for a request of the route over `count` BBLs (or rows). */
export function costOfBbls(route: RouteCost | undefined, count: number): number {
  if (!route) return 1;
  return Math.max(route.minimum, Math.ceil(count / route.bblsPerUnit));
}

export function maxBodyBytes(route: RouteCost | undefined): number {
  return route?.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
}
