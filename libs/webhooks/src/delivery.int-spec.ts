import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { Pool } from 'pg';
import { createApiKey, createDataSource, revokeApiKey } from '@bhis/db';
import { QUEUES, workerConnection } from '@bhis/queue';
import { createTestDatabase, TestDatabase, testRedisPrefix } from '@bhis/testing';
import { Webhook } from 'standardwebhooks';
import { createMonitor, MonitorRecord, rotateSigningSecret, sealStoredSecrets } from './monitor-store';
import { claimDelivery, createTestDelivery, dispatchCrossings } from './outbox';
import { enqueueCrossingDispatch, enqueueDelivery } from './producer';
import { SecretBox } from './secret-box';
import { startWorkerProcess, TestWorkerSettings, waitFor, WebhookReceiver } from './testing/delivery-harness';
import { WebhookWorker } from './webhook-worker';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const FAST_RETRIES = [150, 300, 600, 1_200];
const SECRET_KEY = randomBytes(32);
const SECRETS = new SecretBox([SECRET_KEY]);

describe('webhook delivery (real Postgres, Redis and HTTP receiver)', () => {
  let db: TestDatabase;
  let pool: Pool;
  let redis: Redis;
  let queue: Queue;
  let prefix: string;
  let apiKeyId: string;
  const receiver = new WebhookReceiver();
  const workers: WebhookWorker[] = [];
  const connections: Redis[] = [];
  const children: ChildProcess[] = [];
  let bblCounter = 0;

  function settings(): TestWorkerSettings {
    return {
      databaseUrl: db.url,
      redisUrl: REDIS_URL,
      prefix,
      timeoutMs: 2_000,
      lockMs: 2_500,
      retryDelaysMs: FAST_RETRIES,
      sweepIntervalMs: 300,
      workerOptions: { lockDuration: 1_500, stalledInterval: 500, maxStalledCount: 10 },
      secretKeyHex: SECRET_KEY.toString('hex'),
    };
  }

  async function startWorker(concurrency?: number): Promise<WebhookWorker> {
    const s = settings();
    const connection = workerConnection(REDIS_URL);
    connections.push(connection);
    const worker = new WebhookWorker({
      pool: () => pool,
      connection,
      prefix,
      allowLoopback: true,
      secrets: SECRETS,
      timeoutMs: s.timeoutMs,
      lockMs: s.lockMs,
      retry: { delaysMs: s.retryDelaysMs, jitter: 0 },
      sweepIntervalMs: s.sweepIntervalMs,
      workerOptions: s.workerOptions,
      concurrency,
      perKeyRetryMs: 200,
    });
    await worker.start();
    workers.push(worker);
    return worker;
  }

  async function seedBuildings(count: number): Promise<string[]> {
    const bbls = Array.from({ length: count }, () => `2${String(10_000 + ++bblCounter).padStart(5, '0')}0001`);
    await pool.query(
      `INSERT INTO buildings (bbl, borough, block, lot, address) SELECT b, 2, substr(b, 2, 5)::int, 1, 'ADDRESS OF ' || b FROM unnest($1::text[]) AS b`,
      [bbls],
    );
    return bbls;
  }

  async function newKey(name: string): Promise<string> {
    const ds = createDataSource({ url: db.url, poolSize: 1 });
    await ds.initialize();
    try {
      return (await createApiKey(ds, { name, kind: 'live' })).record.id;
    } finally {
      await ds.destroy();
    }
  }

  async function monitorFor(
    path: string,
    bbls: string[],
    grades: string[] | null = null,
    { owner = apiKeyId, includeUncertain = false }: { owner?: string; includeUncertain?: boolean } = {},
  ): Promise<MonitorRecord> {
    const created = await createMonitor(pool, { apiKeyId: owner, name: path, webhookUrl: receiver.url(path), grades, bbls, includeUncertain }, SECRETS);
    receiver.setSecret(path, created.secret);
    return created.monitor;
  }

  /** Writes grade crossings as the scoring worker does and returns the run id. */
  async function seedCrossings(crossings: { bbl: string; from: [string, number]; to: [string, number]; quiet?: string }[]): Promise<string> {
    const runId = randomUUID();
    for (const c of crossings) {
      await pool.query(
        `INSERT INTO grade_crossings (run_id, bbl, as_of, scorer_id, previous_grade, previous_score, current_grade, current_score, quiet_reason)
         VALUES ($1, $2, '2026-11-20', 'distress_v10_2', $3, $4, $5, $6, $7)`,
        [runId, c.bbl, c.from[0], c.from[1], c.to[0], c.to[1], c.quiet ?? null],
      );
    }
    return runId;
  }

  async function deliveryStates(monitorId: string) {
    const { rows } = await pool.query<{ id: string; webhook_id: string; bbl: string | null; status: string; attempts: number }>(
      `SELECT id, webhook_id, bbl, status, attempts FROM webhook_deliveries WHERE monitor_id = $1 ORDER BY bbl`,
      [monitorId],
    );
    return rows;
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    prefix = testRedisPrefix();
    pool = new Pool({ connectionString: db.url, max: 8 });
    redis = workerConnection(REDIS_URL);
    queue = new Queue(QUEUES.webhooks, { connection: redis, prefix });
    const ds = createDataSource({ url: db.url, poolSize: 1 });
    await ds.initialize();
    apiKeyId = (await createApiKey(ds, { name: 'monitor owner', kind: 'live' })).record.id;
    await ds.destroy();
    await receiver.start();
  });

  afterEach(async () => {
    for (const child of children.splice(0)) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    for (const worker of workers.splice(0)) await worker.stop();
    for (const connection of connections.splice(0)) connection.disconnect();
  });

  afterAll(async () => {
    await receiver.stop();
    await queue?.close();
    redis?.disconnect();
    await pool?.end();
    await db?.drop();
  });

  it('never sends a change caused by a stale source alone or a new scorer version, and changes of buildings the model cannot know only when asked', async () => {
    const bbls = await seedBuildings(4);
    const plain = await monitorFor('/quiet-plain', bbls);
    const asked = await monitorFor('/quiet-asked', bbls, null, { includeUncertain: true });
    const runId = await seedCrossings([
      { bbl: bbls[0], from: ['B', 20], to: ['C', 31], quiet: 'stale-source' },
      { bbl: bbls[1], from: ['B', 20], to: ['C', 31], quiet: 'public-housing' },
      { bbl: bbls[2], from: ['B', 20], to: ['C', 31] },
      { bbl: bbls[3], from: ['B', 20], to: ['C', 31], quiet: 'scorer-change' },
    ]);
    await dispatchCrossings(pool, runId);
    expect((await deliveryStates(plain.id)).map((d) => d.bbl)).toEqual([bbls[2]]);
    expect((await deliveryStates(asked.id)).map((d) => d.bbl)).toEqual([bbls[1], bbls[2]]);
  });

  it('signs with both the new and the replaced secret during a rotation overlap, then with the new one alone', async () => {
    const bbls = await seedBuildings(1);
    const created = await createMonitor(pool, { apiKeyId, name: 'rotate', webhookUrl: receiver.url('/rotate'), grades: null, bbls, includeUncertain: false }, SECRETS);
    const old = created.secret;
    const rotated = await rotateSigningSecret(pool, apiKeyId, created.monitor.id, 3600, SECRETS);
    expect(rotated?.monitor.previousSecretExpiresAt?.getTime()).toBeGreaterThan(Date.now() + 3500_000);
    receiver.setSecret('/rotate', rotated!.secret);
    // a replaced secret stored in clear (as before encryption at rest) is sealed at start like the current one
    await pool.query(`UPDATE monitors SET previous_signing_secret = $2 WHERE id = $1`, [created.monitor.id, old]);
    receiver.reply = () => ({ status: 200 });
    await startWorker();
    const { rows: previous } = await pool.query<{ p: string }>(`SELECT previous_signing_secret AS p FROM monitors WHERE id = $1`, [created.monitor.id]);
    expect(previous[0]!.p).toMatch(/^enc:v1:/);
    expect(SECRETS.open(previous[0]!.p)).toBe(old);
    const verifies = (secret: string, hook: { body: string; headers: Record<string, string> }) => {
      try {
        new Webhook(secret).verify(hook.body, hook.headers);
        return true;
      } catch {
        return false;
      }
    };

    await enqueueDelivery(queue, (await createTestDelivery(pool, created.monitor.id)).id, 1);
    await waitFor(() => receiver.forPath('/rotate').length >= 1, 10_000, 'the delivery within the overlap');
    const during = receiver.forPath('/rotate')[0]!;
    expect(during.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect([verifies(rotated!.secret, during), verifies(old, during)]).toEqual([true, true]);

    // once the overlap is over the new secret signs alone
    await pool.query(`UPDATE monitors SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1`, [created.monitor.id]);
    await enqueueDelivery(queue, (await createTestDelivery(pool, created.monitor.id)).id, 1);
    await waitFor(() => receiver.forPath('/rotate').length >= 2, 10_000, 'the delivery after the overlap');
    const after = receiver.forPath('/rotate')[1]!;
    expect(after.headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect([verifies(rotated!.secret, after), verifies(old, after)]).toEqual([true, false]);

    // a rotation without overlap drops the replaced secret at once
    const again = await rotateSigningSecret(pool, apiKeyId, created.monitor.id, 0, SECRETS);
    expect(again?.monitor.previousSecretExpiresAt).toBeNull();
    expect(await rotateSigningSecret(pool, await newKey('not the owner'), created.monitor.id, 60, SECRETS)).toBeNull();
  });

  it('sends each matching grade change once, signed, with the documented payload and grade filter', async () => {
    const bbls = await seedBuildings(5);
    const watchDF = await monitorFor('/filter-df', bbls, ['D', 'F']);
    const watchAll = await monitorFor('/filter-any', bbls.slice(0, 4));
    receiver.reply = () => ({ status: 200 });
    await startWorker();

    const runId = await seedCrossings([
      { bbl: bbls[0], from: ['C', 55], to: ['D', 66] }, // enters D/F
      { bbl: bbls[1], from: ['D', 70], to: ['F', 85] }, // stays inside D/F
      { bbl: bbls[2], from: ['F', 90], to: ['C', 50] }, // leaves D/F
      { bbl: bbls[3], from: ['A', 10], to: ['B', 22] }, // outside D/F
    ]);
    await enqueueCrossingDispatch(queue, runId);
    await enqueueCrossingDispatch(queue, runId); // same job id: no second dispatch
    await waitFor(() => receiver.forPath('/filter-df').length >= 2 && receiver.forPath('/filter-any').length >= 4, 10_000, 'deliveries');
    expect(await dispatchCrossings(pool, runId)).toEqual([]); // idempotent
    await new Promise((r) => setTimeout(r, 500));

    const df = receiver.forPath('/filter-df');
    expect(df.map((r) => r.json.data.bbl).sort()).toEqual([bbls[0], bbls[2]].sort());
    expect(receiver.forPath('/filter-any')).toHaveLength(4);
    for (const hook of receiver.received) expect(hook.verified).toBe(true);

    const entered = df.find((r) => r.json.data.bbl === bbls[0])!;
    expect(entered.webhookId).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(entered.json).toEqual({
      type: 'building.grade_changed',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      data: {
        monitor_id: watchDF.id,
        bbl: bbls[0],
        address: `ADDRESS OF ${bbls[0]}`,
        previous: { grade: 'C', total_score: 55 },
        current: { grade: 'D', total_score: 66 },
        as_of: '2026-11-20',
        scorer_id: 'distress_v10_2',
      },
    });
    expect((await deliveryStates(watchAll.id)).every((d) => d.status === 'delivered' && d.attempts === 1)).toBe(true);
  });

  it('stores signing secrets sealed, seals clear ones at start, and sends nothing it cannot sign', async () => {
    const bbls = await seedBuildings(3);
    const sealed = await monitorFor('/sealed', [bbls[0]]);
    const legacy = await monitorFor('/legacy', [bbls[1]]);
    const foreign = await monitorFor('/foreign', [bbls[2]]);
    const stored = async (id: string) =>
      (await pool.query<{ signing_secret: string }>(`SELECT signing_secret FROM monitors WHERE id = $1`, [id])).rows[0].signing_secret;
    const secretOf = (path: string) => receiver.secretFor(path);

    expect(await stored(sealed.id)).toMatch(/^enc:v1:[0-9a-f]{8}:/);
    expect(await stored(sealed.id)).not.toContain(secretOf('/sealed').replace(/^whsec_/, ''));
    // a monitor stored before encryption at rest, and one sealed under a key this worker does not have
    await pool.query(`UPDATE monitors SET signing_secret = $2 WHERE id = $1`, [legacy.id, secretOf('/legacy')]);
    await pool.query(`UPDATE monitors SET signing_secret = $2 WHERE id = $1`, [foreign.id, new SecretBox([randomBytes(32)]).seal(secretOf('/foreign'))]);
    const foreignStored = await stored(foreign.id);

    receiver.reply = () => ({ status: 200 });
    await startWorker();
    expect(await stored(legacy.id)).toMatch(/^enc:v1:/);
    expect(SECRETS.open(await stored(legacy.id))).toBe(secretOf('/legacy'));
    expect(await stored(foreign.id)).toBe(foreignStored);
    expect(await sealStoredSecrets(pool, SECRETS)).toEqual({ sealed: 0, unreadable: 1 });

    await enqueueCrossingDispatch(
      queue,
      await seedCrossings(bbls.map((bbl) => ({ bbl, from: ['B', 30] as [string, number], to: ['D', 70] as [string, number] }))),
    );
    await waitFor(() => receiver.forPath('/sealed').length >= 1 && receiver.forPath('/legacy').length >= 1, 10_000, 'signed deliveries');
    for (const path of ['/sealed', '/legacy']) expect(receiver.forPath(path).every((hook) => hook.verified)).toBe(true);
    await waitFor(
      // the claim inserts the attempt row; it holds its error once finished
      async () =>
        (
          await pool.query(
            `SELECT 1 FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.monitor_id = $1 AND a.finished_at IS NOT NULL`,
            [foreign.id],
          )
        ).rowCount! > 0,
      10_000,
      'a finished attempt for the unreadable secret',
    );
    const { rows } = await pool.query<{ error: string }>(
      `SELECT a.error FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.monitor_id = $1 AND a.finished_at IS NOT NULL`,
      [foreign.id],
    );
    expect(rows[0].error).toBe('the signing secret cannot be opened with the configured WEBHOOK_SECRET_KEY');
    expect(receiver.forPath('/foreign')).toHaveLength(0);
  });

  it('retries after 500s with the same webhook-id and records every attempt', async () => {
    const [bbl] = await seedBuildings(1);
    const monitor = await monitorFor('/flaky', [bbl]);
    receiver.reply = (hook, seenBefore) => (hook.path === '/flaky' && seenBefore < 2 ? { status: 500 } : { status: 200 });
    await startWorker();
    await enqueueCrossingDispatch(queue, await seedCrossings([{ bbl, from: ['B', 30], to: ['C', 45] }]));
    await waitFor(async () => (await deliveryStates(monitor.id))[0]?.status === 'delivered', 10_000, 'delivery after retries');

    const hooks = receiver.forPath('/flaky');
    expect(hooks.map((h) => h.answered)).toEqual([500, 500, 200]);
    expect(new Set(hooks.map((h) => h.webhookId)).size).toBe(1);
    expect(hooks.every((h) => h.verified)).toBe(true);
    // the schedule is respected: 150 ms, then 300 ms
    expect(hooks[1].receivedAt - hooks[0].receivedAt).toBeGreaterThanOrEqual(140);
    expect(hooks[2].receivedAt - hooks[1].receivedAt).toBeGreaterThanOrEqual(290);

    const { rows: attempts } = await pool.query(
      `SELECT a.attempt, a.outcome, a.status_code, a.duration_ms, a.error FROM webhook_attempts a
         JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.monitor_id = $1 ORDER BY a.attempt`,
      [monitor.id],
    );
    expect(attempts).toEqual([
      { attempt: 1, outcome: 'retry', status_code: 500, duration_ms: expect.any(Number), error: 'HTTP 500' },
      { attempt: 2, outcome: 'retry', status_code: 500, duration_ms: expect.any(Number), error: 'HTTP 500' },
      { attempt: 3, outcome: 'delivered', status_code: 200, duration_ms: expect.any(Number), error: null },
    ]);
  });

  it('honours Retry-After', async () => {
    const [bbl] = await seedBuildings(1);
    const monitor = await monitorFor('/busy', [bbl]);
    receiver.reply = (hook, seenBefore) =>
      hook.path === '/busy' && seenBefore === 0 ? { status: 503, headers: { 'Retry-After': '2' } } : { status: 200 };
    await startWorker();
    await enqueueCrossingDispatch(queue, await seedCrossings([{ bbl, from: ['B', 30], to: ['C', 45] }]));
    await waitFor(async () => (await deliveryStates(monitor.id))[0]?.status === 'delivered', 10_000, 'delivery after Retry-After');
    const [first, second] = receiver.forPath('/busy');
    expect(second.webhookId).toBe(first.webhookId);
    expect(second.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(1_900);
  });

  it('disables the monitor on 410 and sends it nothing more', async () => {
    const bbls = await seedBuildings(3);
    const monitor = await monitorFor('/gone', bbls);
    receiver.reply = (hook) => (hook.path === '/gone' ? { status: 410 } : { status: 200 });
    await startWorker();
    await enqueueCrossingDispatch(queue, await seedCrossings([{ bbl: bbls[0], from: ['B', 30], to: ['C', 45] }]));
    await waitFor(() => receiver.forPath('/gone').length === 1, 10_000, 'the 410');
    await waitFor(async () => (await pool.query(`SELECT status FROM monitors WHERE id = $1`, [monitor.id])).rows[0].status === 'disabled', 5_000, 'disabled');

    // later grade changes and a queued test event of the disabled monitor go nowhere
    const runId = await seedCrossings([
      { bbl: bbls[1], from: ['B', 30], to: ['D', 65] },
      { bbl: bbls[2], from: ['C', 40], to: ['F', 88] },
    ]);
    await enqueueCrossingDispatch(queue, runId);
    const testDelivery = await createTestDelivery(pool, monitor.id);
    await enqueueDelivery(queue, testDelivery.id, 1);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(receiver.forPath('/gone')).toHaveLength(1);
    const { rows } = await pool.query(`SELECT disabled_reason FROM monitors WHERE id = $1`, [monitor.id]);
    expect(rows[0].disabled_reason).toMatch(/410/);
    const states = await deliveryStates(monitor.id);
    expect(states.map((s) => s.status).sort()).toEqual(['cancelled', 'failed']);
  });

  it('loses nothing and duplicates nothing when the worker process is killed mid-delivery', async () => {
    const bbls = await seedBuildings(6);
    const monitor = await monitorFor('/crash', bbls);
    let hanging = true;
    receiver.reply = (hook) => (hook.path === '/crash' && hanging ? 'hang' : { status: 200 });

    const first = await startWorkerProcess(settings());
    children.push(first);
    await enqueueCrossingDispatch(
      queue,
      await seedCrossings(bbls.map((bbl, i) => ({ bbl, from: ['B', 30 + i] as [string, number], to: ['D', 60 + i] as [string, number] }))),
    );
    // the worker has sent requests and is waiting for answers: kill it without any chance to clean up
    await waitFor(() => receiver.forPath('/crash').length >= 3, 10_000, 'requests in flight');
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    hanging = false;

    const second = await startWorkerProcess(settings());
    children.push(second);
    await waitFor(async () => (await deliveryStates(monitor.id)).every((d) => d.status === 'delivered'), 20_000, 'every delivery');
    await new Promise((r) => setTimeout(r, 1_000));

    const states = await deliveryStates(monitor.id);
    expect(states).toHaveLength(bbls.length);
    const hooks = receiver.forPath('/crash');
    expect(hooks.every((h) => h.verified)).toBe(true);
    // one webhook-id per crossing, each acknowledged exactly once
    const acknowledged = receiver.acknowledged('/crash');
    expect([...acknowledged.keys()].sort()).toEqual(states.map((s) => s.webhook_id).sort());
    for (const ids of acknowledged.values()) expect(ids).toHaveLength(1);
    const idsPerBbl = new Map<string, Set<string>>();
    for (const h of hooks) idsPerBbl.set(String(h.json.data.bbl), (idsPerBbl.get(String(h.json.data.bbl)) ?? new Set()).add(h.webhookId));
    expect([...idsPerBbl.values()].every((ids) => ids.size === 1)).toBe(true);
    expect(idsPerBbl.size).toBe(bbls.length);
    // the attempts cut off by the kill are on record
    const { rows } = await pool.query(
      `SELECT count(*)::int AS n FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
        WHERE d.monitor_id = $1 AND a.outcome = 'interrupted'`,
      [monitor.id],
    );
    expect(rows[0].n).toBeGreaterThanOrEqual(1);
  }, 40_000);

  it('a worker that starts finds due deliveries in the outbox without any queued job', async () => {
    const [bbl] = await seedBuildings(1);
    const monitor = await monitorFor('/sweep', [bbl]);
    receiver.reply = () => ({ status: 200 });
    // outbox rows written while no worker and no job exist (e.g. Redis lost the job)
    await dispatchCrossings(pool, await seedCrossings([{ bbl, from: ['A', 5], to: ['B', 25] }]));
    await startWorker();
    await waitFor(async () => (await deliveryStates(monitor.id))[0]?.status === 'delivered', 10_000, 'swept delivery');
    expect(receiver.forPath('/sweep')).toHaveLength(1);
  });

  it('delivers fairly: a key whose endpoint hangs holds at most two slots, and another key is not delayed', async () => {
    const slowBbls = await seedBuildings(16);
    await monitorFor('/hangs', slowBbls);
    const [fastBbl] = await seedBuildings(1);
    const other = await newKey('other key');
    const fast = await monitorFor('/prompt', [fastBbl], null, { owner: other });
    receiver.reply = (hook) => (hook.path === '/hangs' ? 'hang' : { status: 204 });
    await startWorker(4);
    await enqueueCrossingDispatch(queue, await seedCrossings(slowBbls.map((bbl) => ({ bbl, from: ['B', 30], to: ['C', 45] }))));
    await waitFor(async () => receiver.forPath('/hangs').length >= 2, 5_000, 'the hanging endpoint called');
    await enqueueCrossingDispatch(queue, await seedCrossings([{ bbl: fastBbl, from: ['B', 30], to: ['D', 65] }]));
    // with all four slots taken by the hanging endpoint this would wait for its 2 s timeouts
    await waitFor(async () => (await deliveryStates(fast.id))[0]?.status === 'delivered', 1_500, 'the other key delivered');
    expect(receiver.forPath('/hangs').length).toBeLessThanOrEqual(4);
  });

  it('sends nothing for a revoked or expired key: revocation disables its monitors at once', async () => {
    const [bbl] = await seedBuildings(1);
    const revoked = await newKey('revoked key');
    const monitor = await monitorFor('/revoked', [bbl], null, { owner: revoked });
    const pending = await createTestDelivery(pool, monitor.id);
    const ds = createDataSource({ url: db.url, poolSize: 1 });
    await ds.initialize();
    await revokeApiKey(ds, revoked).finally(() => ds.destroy());
    const { rows } = await pool.query<{ status: string; disabled_reason: string }>(`SELECT status, disabled_reason FROM monitors WHERE id = $1`, [monitor.id]);
    expect(rows[0]).toEqual({ status: 'disabled', disabled_reason: expect.stringMatching(/revoked/) });
    expect((await deliveryStates(monitor.id)).map((d) => d.status)).toEqual(['cancelled']);
    expect(await claimDelivery(pool, pending.id, 1_000)).toBeNull();

    const expiring = await newKey('expired key');
    const other = await monitorFor('/expired', [bbl], null, { owner: expiring });
    const queued = await createTestDelivery(pool, other.id);
    await pool.query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [expiring]);
    expect(await claimDelivery(pool, queued.id, 1_000)).toBeNull();
    await dispatchCrossings(pool, await seedCrossings([{ bbl, from: ['A', 10], to: ['F', 90] }]));
    expect((await deliveryStates(other.id)).filter((d) => d.bbl !== null)).toEqual([]);
  });
});
