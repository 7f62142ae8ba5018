import type { Pool } from 'pg';
import { primaryDatasetId, SOURCES } from '@bhis/sources';
import { type SourceState, sourceStanding } from '@bhis/scoring';

export interface SourceError {
  code: string;
  message: string;
  /** Retrying cannot help: the daily refresh waits for the operator (the message says what to do). */
  permanent: boolean;
  run_id: string | null;
}

export interface SourceStatus {
  key: string;
  name: string;
  agency: string;
  dataset_id: string | null;
  url: string | null;
  cadence: string;
  last_refreshed_at: string | null;
  latest_record_date: string | null;
  records: number;
  status: string;
  is_late: boolean;
  /** The rule shared with the buildings' `stale-source:<key>` flags (sourceStanding in @bhis/scoring). */
  state: SourceState;
  records_behind: boolean;
  failing_since: string | null;
  last_error: SourceError | null;
  last_run: { counts: Record<string, unknown> } | null;
}

interface SourceRow {
  key: string;
  name: string;
  agency: string;
  dataset_id: string | null;
  url: string | null;
  cadence: string;
  last_refreshed_at: Date | null;
  latest_record_date: string | null;
  records: string;
  status: string;
  counts: Record<string, unknown> | null;
  failing_since: Date | null;
  last_error_code: string | null;
  last_error_message: string | null;
  failure_permanent: boolean;
  last_failed_run_id: string | null;
}

/**
 * Every source of the catalog in catalog order, with its freshness from the `sources` table (a source
 * the ingest has never seen is listed as never loaded) and its state on `now`'s day (UTC), by the
 * rule the scoring of that day applies.
 */
export async function sourceStatuses(pool: Pool, now: Date = new Date()): Promise<SourceStatus[]> {
  const { rows } = await pool.query<SourceRow>(
    `SELECT s.key, s.name, s.agency, s.dataset_id, s.url, s.cadence, s.last_refreshed_at,
            to_char(s.latest_record_date, 'YYYY-MM-DD') AS latest_record_date, s.records::text AS records, s.status, r.counts,
            s.failing_since, s.last_error_code, s.last_error_message, s.failure_permanent, s.last_failed_run_id
       FROM sources s LEFT JOIN ingest_runs r ON r.id = s.last_run_id`,
  );
  const byKey = new Map(rows.map((r) => [r.key, r]));
  const today = now.toISOString().slice(0, 10);
  return SOURCES.map((source) => {
    const row = byKey.get(source.key);
    const cadence = row?.cadence ?? source.cadence;
    const lastRefreshedAt = row?.last_refreshed_at?.toISOString() ?? null;
    const failingSince = row?.failing_since?.toISOString() ?? null;
    const latestRecordDate = row?.latest_record_date ?? null;
    const standing = sourceStanding({ cadence, last_refreshed_at: lastRefreshedAt, latest_record_date: latestRecordDate, failing_since: failingSince }, today);
    return {
      key: source.key,
      name: row?.name ?? source.name,
      agency: row?.agency ?? source.agency,
      dataset_id: row ? row.dataset_id : primaryDatasetId(source),
      url: row ? row.url : (source.parts.find((p) => p.urls)?.urls?.csv ?? null),
      cadence,
      last_refreshed_at: lastRefreshedAt,
      latest_record_date: latestRecordDate,
      records: Number(row?.records ?? 0),
      status: row?.status ?? 'never_loaded',
      is_late: standing.late,
      state: standing.state,
      records_behind: standing.records_behind,
      failing_since: failingSince,
      last_error:
        row && failingSince !== null
          ? { code: row.last_error_code ?? 'load_failed', message: row.last_error_message ?? '', permanent: row.failure_permanent, run_id: row.last_failed_run_id }
          : null,
      last_run: row?.counts ? { counts: row.counts } : null,
    };
  });
}
