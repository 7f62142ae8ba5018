import { Pool } from 'pg';
import { isReplicaFailure, parseLsn, ReadReplicas } from './read-replicas';

// The routing against real Postgres servers that are not replicas; reads from a real streaming
// replica, its loss under load and the lag are tested in apps/reliability/src/read-replica.rel-spec.ts.
const PRIMARY_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

describe('parseLsn', () => {
  it('reads a WAL position as bytes', () => {
    expect(parseLsn('0/0')).toBe(0n);
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) + 0xb374d848n);
    expect(parseLsn('1/0') > parseLsn('0/FFFFFFFF')).toBe(true);
    expect(() => parseLsn('nonsense')).toThrow('not an LSN');
  });
});

describe('isReplicaFailure', () => {
  it('sends broken connections, shutdowns and recovery conflicts to the primary, not wrong statements', () => {
    expect(isReplicaFailure(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isReplicaFailure(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isReplicaFailure({ code: '57P01' })).toBe(true); // admin shutdown
    expect(isReplicaFailure({ code: '57P03' })).toBe(true); // cannot connect now (starting up)
    expect(isReplicaFailure({ code: '08006' })).toBe(true);
    expect(isReplicaFailure({ code: '40001' })).toBe(true); // canceled: conflict with recovery
    expect(isReplicaFailure({ code: '22P02' })).toBe(false); // invalid input
    expect(isReplicaFailure({ code: '42P01' })).toBe(false); // undefined table
    expect(isReplicaFailure({ code: '57014' })).toBe(false); // statement timeout: the primary would time out too
  });
});

describe('ReadReplicas', () => {
  const primary = new Pool({ connectionString: PRIMARY_URL, max: 2, application_name: 'bhis-read-replicas-spec' });
  afterAll(() => primary.end());

  const serverAddress = async (read: ReadReplicas): Promise<string> => {
    const { rows } = await read.readPool.query<{ port: number }>('SELECT inet_server_port() AS port');
    return String(rows[0]?.port);
  };

  it('reads from the primary when no replica is configured', async () => {
    const replicas = new ReadReplicas(() => primary, [], { poolSize: 1, maxLagMs: 1_000 });
    replicas.start();
    expect(replicas.configured).toBe(false);
    expect(await serverAddress(replicas)).toBe(new URL(PRIMARY_URL).port || '5432');
    expect(replicas.state()).toEqual([]);
    await replicas.stop();
  });

  it('never reads from a server that is not a standby, and reports it down', async () => {
    const replicas = new ReadReplicas(() => primary, [PRIMARY_URL], { poolSize: 1, maxLagMs: 1_000 });
    await replicas.probe();
    expect(replicas.state()).toEqual([expect.objectContaining({ status: 'down', in_use: false, lag_ms: null })]);
    await replicas.stop();
  });

  it('falls back to the primary when a replica cannot be reached, and names it without credentials', async () => {
    const replicas = new ReadReplicas(() => primary, ['postgres://reader:secret@127.0.0.1:1/bhis'], { poolSize: 1, maxLagMs: 1_000 });
    await replicas.probe();
    const [state] = replicas.state();
    expect(state).toEqual({ name: '127.0.0.1:1/bhis', status: 'down', in_use: false, lag_ms: null, lag_bytes: null });
    const { rows } = await replicas.readPool.query<{ one: number }>('SELECT 1 AS one');
    expect(rows[0]?.one).toBe(1);
    const client = await replicas.readPool.connect();
    client.release();
    await replicas.stop();
  });

  it('passes statement errors through instead of retrying them', async () => {
    const replicas = new ReadReplicas(() => primary, [], { poolSize: 1, maxLagMs: 1_000 });
    await expect(replicas.readPool.query('SELECT * FROM no_such_table')).rejects.toMatchObject({ code: '42P01' });
    await replicas.stop();
  });
});
