import { Pool, PoolClient, QueryConfig, QueryResult, QueryResultRow } from 'pg';
import { CHANGE_CHANNELS, ChangeListener } from './change-listener';

/** What the readers of published data use: a query, or a client for a cursor. */
export interface ReadPool {
  query<R extends QueryResultRow = QueryResultRow>(text: string | QueryConfig, values?: unknown[]): Promise<QueryResult<R>>;
  connect(): Promise<PoolClient>;
}

export interface ReadReplicasOptions {
  poolSize: number;
  /** A replica further behind than this is not read from. */
  maxLagMs: number;
  applicationName?: string;
  /** How often every replica's replay position and the primary's WAL position are read. */
  probeMs?: number;
  /** How often while a change announced by the primary has not reached every replica yet. */
  catchUpProbeMs?: number;
}

export interface ReplicaState {
  /** host:port/database, never the credentials. */
  name: string;
  status: 'up' | 'down';
  /** Whether reads go to it now (up, within the lag bound, past the last announced change). */
  in_use: boolean;
  lag_ms: number | null;
  lag_bytes: number | null;
}

/** A WAL position (`16/B374D848`) as a number of bytes. */
export function parseLsn(lsn: string): bigint {
  const [high, low] = lsn.split('/');
  if (high === undefined || low === undefined) throw new Error(`not an LSN: ${lsn}`);
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/**
 * Errors that say the replica could not answer, not that the statement is wrong: the same read is
 * then sent to the primary. No SQLSTATE (the connection broke, a pool timeout), connection
 * exceptions (08), shutdown and recovery states (57P0x), insufficient resources (53), and a
 * statement cancelled by a conflict with recovery on the standby (40001).
 */
export function isReplicaFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return true;
  return code.startsWith('08') || code.startsWith('57P') || code.startsWith('53') || code === '40001';
}

function displayName(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
}

const PROBE_TIMEOUT_MS = 2_000;

class Replica {
  readonly name: string;
  readonly pool: Pool;
  up = false;
  replayLsn: bigint | null = null;
  lagMs: number | null = null;
  lagBytes: number | null = null;

  constructor(url: string, options: ReadReplicasOptions) {
    this.name = displayName(url);
    this.pool = new Pool({
      connectionString: url,
      max: options.poolSize,
      connectionTimeoutMillis: 2_000,
      idleTimeoutMillis: 30_000,
      application_name: options.applicationName ?? 'bhis-api-read',
      statement_timeout: 60_000,
    });
    // a replica that goes away must not crash the process: its idle clients emit errors
    this.pool.on('error', () => (this.up = false));
  }
}

/**
 * Reads of published data from streaming replicas, with the primary as fallback.
 *
 * - A replica is read from only while its last probe succeeded, its lag is within `maxLagMs`, and it
 *   has replayed every change the primary announced (ChangeListener): after a notification, reads go
 *   to the primary until the replicas pass the primary's WAL position taken at that moment. Caches
 *   refilled after a change therefore never hold data older than the change.
 * - A read that fails on a replica because the replica could not answer is retried once on the
 *   primary and the replica is left out until a probe finds it again.
 * - Key checks, monitors and admin reads never come here: they read the primary.
 */
export class ReadReplicas {
  private readonly replicas: Replica[];
  private next = 0;
  private fencesPending = 0;
  private fenceLsn = 0n;
  private probeTimer: NodeJS.Timeout | undefined;
  private probing: Promise<void> | null = null;
  private stopped = true;
  readonly readPool: ReadPool;

  constructor(
    private readonly primary: () => Pool,
    urls: readonly string[],
    private readonly options: ReadReplicasOptions,
    changes?: ChangeListener,
  ) {
    this.replicas = urls.map((url) => new Replica(url, options));
    for (const channel of [CHANGE_CHANNELS.buildingDocuments, CHANGE_CHANNELS.events]) changes?.onChange(channel, () => this.fence());
    this.readPool = {
      query: (text, values) => this.withFallback((pool) => pool.query(text as string, values)),
      connect: () => this.withFallback((pool) => pool.connect()),
    };
  }

  get configured(): boolean {
    return this.replicas.length > 0;
  }

  start(): void {
    if (!this.configured || !this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.probeTimer);
    await this.probing;
    await Promise.all(this.replicas.map((r) => r.pool.end().catch(() => undefined)));
  }

  state(): ReplicaState[] {
    return this.replicas.map((r) => ({
      name: r.name,
      status: r.up ? 'up' : 'down',
      in_use: this.usable(r),
      lag_ms: r.lagMs,
      lag_bytes: r.lagBytes,
    }));
  }

  /** Probes every replica now (the health check and tests use it). */
  async probe(): Promise<void> {
    this.probing ??= this.probeAll().finally(() => (this.probing = null));
    return this.probing;
  }

  private usable(replica: Replica): boolean {
    return (
      replica.up &&
      replica.lagMs !== null &&
      replica.lagMs <= this.options.maxLagMs &&
      this.fencesPending === 0 &&
      replica.replayLsn !== null &&
      replica.replayLsn >= this.fenceLsn
    );
  }

  private choose(): Replica | null {
    for (let i = 0; i < this.replicas.length; i++) {
      const replica = this.replicas[(this.next + i) % this.replicas.length];
      if (replica && this.usable(replica)) {
        this.next = (this.next + i + 1) % this.replicas.length;
        return replica;
      }
    }
    return null;
  }

  private async withFallback<T>(run: (pool: Pool) => Promise<T>): Promise<T> {
    const replica = this.choose();
    if (!replica) return run(this.primary());
    try {
      return await run(replica.pool);
    } catch (error) {
      if (!isReplicaFailure(error)) throw error;
      replica.up = false;
      return run(this.primary());
    }
  }

  /** A change was announced: read the primary until every replica has replayed up to here. */
  private fence(): void {
    if (!this.configured) return;
    this.fencesPending++;
    void this.primaryLsn()
      .then(
        (lsn) => {
          if (lsn > this.fenceLsn) this.fenceLsn = lsn;
        },
        () => undefined, // primary unreachable: the next probe's position stands in for it
      )
      .finally(() => {
        this.fencesPending--;
        this.schedule(0);
      });
  }

  private async primaryLsn(): Promise<bigint> {
    const { rows } = await this.primary().query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
    return parseLsn(rows[0]?.lsn ?? '0/0');
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.probeTimer);
    this.probeTimer = setTimeout(() => {
      void this.probe().finally(() => {
        const behind = this.replicas.some((r) => r.up && (r.replayLsn ?? 0n) < this.fenceLsn);
        this.schedule(behind ? (this.options.catchUpProbeMs ?? 50) : (this.options.probeMs ?? 1_000));
      });
    }, delayMs);
    this.probeTimer.unref();
  }

  private async probeAll(): Promise<void> {
    let primaryLsn: bigint | null = null;
    try {
      primaryLsn = await withTimeout(this.primaryLsn());
    } catch {
      // the primary is down: replicas are judged by their replay age alone
    }
    await Promise.all(this.replicas.map((replica) => this.probeReplica(replica, primaryLsn)));
  }

  private async probeReplica(replica: Replica, primaryLsn: bigint | null): Promise<void> {
    try {
      const { rows } = await withTimeout(
        replica.pool.query<{ standby: boolean; replay_lsn: string | null; replay_age_ms: number | null }>(
          `SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replay_lsn,
                  (extract(epoch FROM clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000)::float8 AS replay_age_ms`,
        ),
      );
      const row = rows[0];
      if (!row?.standby || row.replay_lsn === null) throw new Error(`${replica.name} is not a streaming replica`);
      const replayLsn = parseLsn(row.replay_lsn);
      replica.replayLsn = replayLsn;
      if (primaryLsn === null) {
        replica.lagBytes = null;
        replica.lagMs = row.replay_age_ms === null ? null : Math.max(0, Math.round(row.replay_age_ms));
      } else {
        const behind = primaryLsn > replayLsn ? Number(primaryLsn - replayLsn) : 0;
        replica.lagBytes = behind;
        // caught up: no lag, however long ago the last write was; behind: the age of the last replayed commit
        replica.lagMs = behind === 0 ? 0 : Math.max(0, Math.round(row.replay_age_ms ?? Number.POSITIVE_INFINITY));
      }
      replica.up = true;
    } catch {
      replica.up = false;
      replica.lagMs = null;
      replica.lagBytes = null;
    }
  }
}

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('probe timed out')), PROBE_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
