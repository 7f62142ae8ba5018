import { CADENCE_ALLOWANCES } from '@bhis/scoring';

const DAY_MS = 86_400_000;

/**
 * Days after its last refresh when a source counts as late: the `refresh_days` of the cadence table the
 * scoring engine uses for confidence freshness (CADENCE_ALLOWANCES in @bhis/scoring), so the API and the
 * confidence scores never disagree. Static sources are never late; a never-loaded source is late.
 */
export function lateAfterDays(cadence: string): number {
  return (CADENCE_ALLOWANCES[cadence.trim().toLowerCase()] ?? CADENCE_ALLOWANCES.monthly).refresh_days;
}

export function isSourceLate(cadence: string, lastRefreshedAt: Date | null, now: Date = new Date()): boolean {
  const allowed = lateAfterDays(cadence);
  if (!Number.isFinite(allowed)) return false;
  if (lastRefreshedAt === null) return true;
  return now.getTime() - lastRefreshedAt.getTime() > allowed * DAY_MS;
}
