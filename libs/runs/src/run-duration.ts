/** SQL of a run's duration as it ends now: from its start, or from its queueing when it never started. */
export const RUN_DURATION_MS_SQL = '(extract(epoch FROM now() - COALESCE(started_at, queued_at)) * 1000)::integer';
