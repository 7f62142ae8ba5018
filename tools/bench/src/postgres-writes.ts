import { withClient } from './database';

/** The server settings that decide how a bulk load writes (docs/scaling.md, "Postgres for a city load"). */
export const WRITE_SETTINGS = ['shared_buffers', 'max_wal_size', 'checkpoint_timeout', 'wal_compression', 'wal_level', 'synchronous_commit', 'maintenance_work_mem'] as const;

export interface PostgresWriteCounters {
  walBytes: number;
  /** Full-page images: a page's first change after a checkpoint writes the whole page to the WAL. */
  walFullPageImages: number;
  checkpointsRequested: number;
  checkpointsTimed: number;
  /** Pages the backends had to write out themselves (shared_buffers full of dirty pages). */
  buffersWrittenByBackends: number;
  buffersWrittenByCheckpoints: number;
}

export interface PostgresWrites extends PostgresWriteCounters {
  settings: Record<string, string>;
}

/** The server's cumulative WAL and checkpoint counters (whole cluster: the bench runs alone on it). */
export function readWriteCounters(url: string): Promise<PostgresWriteCounters> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<Record<string, string>>(
      `SELECT w.wal_bytes, w.wal_fpi, b.checkpoints_req, b.checkpoints_timed, b.buffers_backend, b.buffers_checkpoint
         FROM pg_stat_wal w, pg_stat_bgwriter b`,
    );
    const r = rows[0];
    return {
      walBytes: Number(r.wal_bytes),
      walFullPageImages: Number(r.wal_fpi),
      checkpointsRequested: Number(r.checkpoints_req),
      checkpointsTimed: Number(r.checkpoints_timed),
      buffersWrittenByBackends: Number(r.buffers_backend),
      buffersWrittenByCheckpoints: Number(r.buffers_checkpoint),
    };
  });
}

export function readWriteSettings(url: string): Promise<Record<string, string>> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ name: string; value: string }>(
      `SELECT name, current_setting(name) AS value FROM pg_settings WHERE name = ANY($1::text[]) ORDER BY name`,
      [WRITE_SETTINGS],
    );
    return Object.fromEntries(rows.map((r) => [r.name, r.value]));
  });
}

/** What the server wrote between two readings of its counters, with its settings. */
export function writesBetween(before: PostgresWriteCounters, after: PostgresWriteCounters, settings: Record<string, string>): PostgresWrites {
  return {
    settings,
    walBytes: after.walBytes - before.walBytes,
    walFullPageImages: after.walFullPageImages - before.walFullPageImages,
    checkpointsRequested: after.checkpointsRequested - before.checkpointsRequested,
    checkpointsTimed: after.checkpointsTimed - before.checkpointsTimed,
    buffersWrittenByBackends: after.buffersWrittenByBackends - before.buffersWrittenByBackends,
    buffersWrittenByCheckpoints: after.buffersWrittenByCheckpoints - before.buffersWrittenByCheckpoints,
  };
}
