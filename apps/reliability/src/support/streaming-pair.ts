import { execFileSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort, poll } from '@bhis/testing';

/** The server programs of the local PostgreSQL (Debian's layout), or wherever PG_BIN says. */
function postgresBin(): string {
  const candidates = [process.env.PG_BIN, '/usr/lib/postgresql/15/bin'].filter((d): d is string => Boolean(d));
  const found = candidates.find((dir) => existsSync(path.join(dir, 'pg_ctl')));
  if (!found) throw new Error(`pg_ctl not found in ${candidates.join(', ')} (set PG_BIN)`);
  return found;
}

/** Postgres refuses to run as root: as root, its programs run as the `postgres` OS user. */
function asPostgres(program: string, args: string[], timeoutMs = 120_000): string {
  const file = path.join(postgresBin(), program);
  const [cmd, cmdArgs] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
  return execFileSync(cmd, cmdArgs, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs });
}

function postgresUid(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  return { uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })), gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })) };
}

/**
 * A primary and a streaming hot standby of it, each a throw-away cluster in a temp folder on its own
 * loopback port: `initdb` (trust on loopback, replication allowed by initdb's default pg_hba),
 * `wal_level=replica`, then `pg_basebackup -R -X stream` into the standby's folder. The pair is
 * created for the test and leaves the machine's own cluster untouched: copying that one would copy
 * every database of every other test on it, and need its pg_hba.conf changed.
 */
export class StreamingPair {
  private constructor(
    readonly dir: string,
    readonly primaryPort: number,
    readonly replicaPort: number,
  ) {}

  static async create(database: string): Promise<StreamingPair> {
    const dir = mkdtempSync(path.join(tmpdir(), 'bhis-streaming-'));
    const owner = postgresUid();
    if (owner) chownSync(dir, owner.uid, owner.gid);
    const pair = new StreamingPair(dir, await freePort(), await freePort());
    try {
      asPostgres('initdb', ['-D', pair.primaryDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
      appendFileSync(
        path.join(pair.primaryDir, 'postgresql.conf'),
        [
          `port = ${pair.primaryPort}`,
          `listen_addresses = '127.0.0.1'`,
          `unix_socket_directories = '${dir}'`,
          'wal_level = replica',
          'max_wal_senders = 4',
          'wal_keep_size = 256MB',
          'shared_buffers = 64MB',
          'fsync = off',
          'full_page_writes = off',
          'max_connections = 100',
          '',
        ].join('\n'),
      );
      pair.start('primary');
      await pair.admin(pair.primaryPort, (c) => c.query(`CREATE DATABASE "${database}"`));
      return pair;
    } catch (error) {
      await pair.destroy();
      throw error;
    }
  }

  get primaryDir(): string {
    return path.join(this.dir, 'primary');
  }

  get replicaDir(): string {
    return path.join(this.dir, 'replica');
  }

  url(port: number, database: string): string {
    return `postgres://postgres@127.0.0.1:${port}/${database}`;
  }

  /** Copies the primary into the replica's folder (once) and starts the replica streaming from it. */
  async startReplica(): Promise<void> {
    if (!existsSync(this.replicaDir)) {
      asPostgres('pg_basebackup', ['-h', '127.0.0.1', '-p', String(this.primaryPort), '-U', 'postgres', '-D', this.replicaDir, '-R', '-X', 'stream', '-c', 'fast', '--no-sync']);
    }
    this.start('replica');
    await poll(
      'the replica streaming from the primary',
      () => this.admin(this.primaryPort, async (c) => ((await c.query(`SELECT 1 FROM pg_stat_replication WHERE state = 'streaming'`)).rowCount ? true : null)),
      60_000,
      100,
    );
  }

  /** Stops the replica at once (connections are cut, as when a replica host goes away). */
  stopReplica(): void {
    asPostgres('pg_ctl', ['-D', this.replicaDir, '-m', 'immediate', '-w', 'stop']);
  }

  /** Waits until the replica has replayed everything the primary has written so far. */
  async waitForReplay(database: string): Promise<void> {
    const target = await this.admin(this.primaryPort, async (c) => (await c.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0]?.lsn ?? '0/0');
    await poll(
      'the replica replaying the primary',
      () =>
        this.admin(
          this.replicaPort,
          async (c) => ((await c.query(`SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done`, [target])).rows[0]?.done ? true : null),
          database,
        ),
      60_000,
      50,
    );
  }

  async admin<T>(port: number, fn: (client: Client) => Promise<T>, database = 'postgres'): Promise<T> {
    const client = new Client({ connectionString: this.url(port, database) });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  }

  async destroy(): Promise<void> {
    for (const folder of [this.replicaDir, this.primaryDir]) {
      if (existsSync(path.join(folder, 'postmaster.pid'))) {
        try {
          asPostgres('pg_ctl', ['-D', folder, '-m', 'immediate', '-w', 'stop']);
        } catch {
          // already stopped
        }
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  private start(which: 'primary' | 'replica'): void {
    const folder = which === 'primary' ? this.primaryDir : this.replicaDir;
    const port = which === 'primary' ? this.primaryPort : this.replicaPort;
    asPostgres('pg_ctl', ['-D', folder, '-l', path.join(this.dir, `${which}.log`), '-o', `-p ${port}`, '-w', '-t', '60', 'start']);
  }
}
