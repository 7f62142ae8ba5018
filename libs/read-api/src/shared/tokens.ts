/** A getter for the pg pool (throws the 503-mapped error until the database is reachable). */
export const READ_POOL = Symbol('bhis:read-api:pool');
