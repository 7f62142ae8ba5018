/** The reduced CI form (REL_MODE=ci) or the full form of the reliability suite. */
export const MODE: 'ci' | 'full' = process.env.REL_MODE === 'ci' ? 'ci' : 'full';

export const SETTINGS = {
  ci: { fuzzRequests: 2_000, soakSeconds: 30, postgresRestart: false },
  full: { fuzzRequests: 10_000, soakSeconds: 600, postgresRestart: true },
}[MODE];

/** Buildings of the seeded synthetic city every spec starts from. */
export const SEED_CITY_BUILDINGS = 1_000;

/** Every reliability test may take minutes (the soak takes ten in the full form). */
export const TEST_TIMEOUT_MS = 1_500_000;
