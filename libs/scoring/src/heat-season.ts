/** Heat season in New York City. */
export const HEAT_SEASON = { start_month: 10, end_month: 5, description: 'October 1 to May 31' } as const;

/**
 * The heat season the `heat-season-complaints` flag looks at, both ends included: the current season up
 * to `as_of` when `as_of` falls inside one, otherwise the last completed season.
 */
export function heatSeasonWindow(asOf: string): { start: string; end: string } {
  const year = Number(asOf.slice(0, 4));
  const month = Number(asOf.slice(5, 7));
  if (month >= HEAT_SEASON.start_month) return { start: `${year}-10-01`, end: asOf };
  if (month <= HEAT_SEASON.end_month) return { start: `${year - 1}-10-01`, end: asOf };
  return { start: `${year - 1}-10-01`, end: `${year}-05-31` };
}
