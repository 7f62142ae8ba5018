export const SCOPES = [
  'buildings:read',
  'events:read',
  'portfolio:read',
  'portfolio:write',
  'sources:read',
  /** Only for a Prometheus scraper: GET /metrics. */
  'metrics:read',
  'admin',
] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** Scopes a `sk_demo_` key may hold: the read scopes except exports/analysis and monitors. */
export const DEMO_SCOPES: readonly Scope[] = ['buildings:read', 'events:read', 'sources:read'];

/** Scopes a `sk_live_` key gets when none are named: everything a client needs, not admin. */
export const DEFAULT_LIVE_SCOPES: readonly Scope[] = [
  'buildings:read',
  'events:read',
  'portfolio:read',
  'portfolio:write',
  'sources:read',
];
