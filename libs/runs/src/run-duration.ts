/**
 * The moment a run ends. Not `now()`: a load and a scoring run record their success inside their
 * own transaction (its commit is the run's end), and `now()` is the moment that transaction began.
 */
export const RUN_END_SQL = 'clock_timestamp()';

/** SQL of a run's duration as it ends: from its start, or from its queueing when it never started. */
export const RUN_DURATION_MS_SQL = `(extract(epoch FROM ${RUN_END_SQL} - COALESCE(started_at, queued_at)) * 1000)::integer`;
