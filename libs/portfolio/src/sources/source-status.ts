import type { Pool } from 'pg';
import { primaryDatasetId, SOURCES } from '@bhis/sources';
import { isSourceLate } from './source-lateness';

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
}

/**
 * Every source of the catalog in catalog order, with its freshness from the `sources` table (a source
 * the ingest has never seen is listed as never loaded).
 */
export async function sourceStatuses(pool: Pool, now: Date = new Date()): Promise<SourceStatus[]> {
  const { rows } = await pool.query<SourceRow>(
    `SELECT s.key, s.name, s.agency, s.dataset_id, s.url, s.cadence, s.last_refreshed_at,
            to_char(s.latest_record_date, 'YYYY-MM-DD') AS latest_record_date, s.records::text AS records, s.status, r.counts
       FROM sources s LEFT JOIN ingest_runs r ON r.id = s.last_run_id`,
  );
  const byKey = new Map(rows.map((r) => [r.key, r]));
  return SOURCES.map((source) => {
    const row = byKey.get(source.key);
    const cadence = row?.cadence ?? source.cadence;
    const lastRefreshedAt = row?.last_refreshed_at ?? null;
    return {
      key: source.key,
      name: row?.name ?? source.name,
      agency: row?.agency ?? source.agency,
      dataset_id: row ? row.dataset_id : primaryDatasetId(source),
      url: row ? row.url : (source.parts.find((p) => p.urls)?.urls?.csv ?? null),
      cadence,
      last_refreshed_at: lastRefreshedAt?.toISOString() ?? null,
      latest_record_date: row?.latest_record_date ?? null,
      records: Number(row?.records ?? 0),
      status: row?.status ?? 'never_loaded',
      is_late: isSourceLate(cadence, lastRefreshedAt, now),
      last_run: row?.counts ? { counts: row.counts } : null,
    };
  });
}
